"""scripts/check-ios-symbols, on a small app of its own and a package API given here (no build needed)."""
import importlib.machinery
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
loader = importlib.machinery.SourceFileLoader("check_ios_symbols", os.path.join(ROOT, "scripts/check-ios-symbols"))
spec = importlib.util.spec_from_loader("check_ios_symbols", loader)
check = importlib.util.module_from_spec(spec)
sys.modules["check_ios_symbols"] = check
loader.exec_module(check)

API = check.PublicAPI(
    types={"AppSession", "Recorder"},
    members={"AppSession": {"Phase", "refresh", "phase", "unreachableServer"}, "Phase": {"signedIn", "signedOut"}},
)
APPLE = {"View", "Text", "padding", "String"}


def app(tmp_path, source):
    (tmp_path / "Screen.swift").write_text(source)
    return check.read_app(str(tmp_path))


def test_names_of_the_package_the_app_and_apple_are_known(tmp_path):
    use = app(
        tmp_path,
        """
        struct Screen: View {
            let session: AppSession
            var body: some View { Text(AppSession.unreachableServer).padding() }
            func go() async { await session.refresh(); _ = session.phase == .signedIn; go() }
        }
        """,
    )
    assert check.problems(API, use, APPLE) == ([], [])


def test_a_member_the_package_lost_is_named_with_where_it_is_used(tmp_path):
    use = app(tmp_path, "struct Screen: View {\n    func go(session: AppSession) { session.refreshAll() }\n}\n")
    unknown, missing = check.problems(API, use, APPLE)
    assert len(unknown) == 1 and unknown[0].endswith("Screen.swift:2: refreshAll")
    assert missing == []


def test_a_type_member_is_checked_against_that_type(tmp_path):
    # `padding` is a known name (Apple's), but not a member of the package's AppSession
    use = app(tmp_path, "let message = AppSession.padding\n")
    unknown, missing = check.problems(API, use, APPLE)
    assert unknown == []
    assert len(missing) == 1 and missing[0].endswith("AppSession.padding (not a public member of AppSession)")


def test_comments_and_strings_are_not_code(tmp_path):
    use = app(
        tmp_path,
        '/* Recorder.oldName */\nlet text: String = "AppSession.gone \\(1)" // session.removed()\n'
        'let block = """\n  .alsoGone\n  """\n',
    )
    assert check.problems(API, use, APPLE) == ([], [])
