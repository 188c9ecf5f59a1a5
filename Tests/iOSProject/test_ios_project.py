"""The iOS app's project files, checked on Linux where the app cannot be built: the XcodeGen spec, the
Info.plists, entitlements, privacy manifests, assets and string catalog, and that they agree with each
other and with the Swift sources. Needs PyYAML."""
import json
import os
import plistlib
import re
import struct

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IOS = os.path.join(ROOT, "Apps", "iOS")
BUNDLE_ID = "com.example.myday"
GENERATED = {"MyDay.xcodeproj", "build", "DerivedData", ".build"}
APP_PLIST = "MyDay/Resources/Info.plist"
WIDGET_PLIST = "MyDayControl/Info.plist"


def path(relative):
    return os.path.join(IOS, relative)


def load_plist(relative):
    with open(path(relative), "rb") as file:
        return plistlib.load(file)


def files_under_ios():
    """Every file of the iOS tree that is written by hand (not what xcodegen or a build makes)."""
    for folder, subfolders, names in os.walk(IOS):
        subfolders[:] = sorted(name for name in subfolders if name not in GENERATED)
        for name in sorted(names):
            yield os.path.relpath(os.path.join(folder, name), IOS)


def swift_sources(*folders):
    """The Swift files under the given folders of Apps/iOS (all of them without folders), by path."""
    sources = {}
    for relative in files_under_ios():
        if relative.endswith(".swift") and (not folders or relative.split(os.sep)[0] in folders):
            with open(path(relative), encoding="utf-8") as file:
                sources[relative] = file.read()
    return sources


@pytest.fixture(scope="module")
def spec():
    with open(path("project.yml"), encoding="utf-8") as file:
        return yaml.safe_load(file)


def test_project_spec_names_the_three_targets(spec):
    """The app, its control extension and its tests exist with the product types Xcode needs."""
    assert spec["name"] == "MyDay"
    types = {name: (target["type"], target["platform"]) for name, target in spec["targets"].items()}
    assert types == {
        "My Day": ("application", "iOS"),
        "MyDayControl": ("app-extension", "iOS"),
        "MyDayTests": ("bundle.unit-test", "iOS"),
    }
    assert {"target": "My Day"} in spec["targets"]["MyDayTests"]["dependencies"]
    assert spec["schemes"]["My Day"]["test"]["targets"] == ["MyDayTests"]


def test_bundle_id_is_written_in_one_place(spec):
    """The bundle id lives in MYDAY_BUNDLE_ID only, so changing it there changes the app, extension and group."""
    assert spec["settings"]["base"]["MYDAY_BUNDLE_ID"] == BUNDLE_ID
    holders = []
    for relative in files_under_ios():
        if relative.endswith(".md"):
            continue
        with open(path(relative), "rb") as file:
            count = file.read().count(BUNDLE_ID.encode())
        holders += [relative] * count
    assert holders == ["project.yml"], f"{BUNDLE_ID} written in: {holders}"


def test_build_settings_derive_from_the_bundle_id(spec):
    """Every target's bundle id, and the App Group, are built from MYDAY_BUNDLE_ID."""
    identifiers = {
        name: target["settings"]["base"]["PRODUCT_BUNDLE_IDENTIFIER"] for name, target in spec["targets"].items()
    }
    assert identifiers == {
        "My Day": "$(MYDAY_BUNDLE_ID)",
        "MyDayControl": "$(MYDAY_BUNDLE_ID).control",
        "MyDayTests": "$(MYDAY_BUNDLE_ID).tests",
    }
    for plist in (APP_PLIST, WIDGET_PLIST):
        assert load_plist(plist)["MyDayAppGroup"] == "group.$(MYDAY_BUNDLE_ID)"


def test_app_uses_my_day_kit_from_the_local_package_on_ios_17(spec):
    """The app links MyDayKit from this repository's package and runs on iOS 17; the control needs iOS 18."""
    local = spec["packages"]["MyDay"]["path"]
    with open(os.path.join(IOS, local, "Package.swift"), encoding="utf-8") as file:
        manifest = file.read()
    assert 'name: "MyDay"' in manifest and '.library(name: "MyDayKit"' in manifest
    app = spec["targets"]["My Day"]
    assert any(d.get("package") == "MyDay" and "MyDayKit" in d.get("products", []) for d in app["dependencies"])
    assert {"target": "MyDayControl", "embed": True} in app["dependencies"]
    assert str(spec["options"]["deploymentTarget"]["iOS"]) == "17.0"
    assert "deploymentTarget" not in app
    assert str(spec["targets"]["MyDayControl"]["deploymentTarget"]) == "18.0"


def linked_products(target):
    """The package products a target of the spec links, by package."""
    linked = {}
    for dependency in target.get("dependencies", []):
        if "package" in dependency:
            names = dependency.get("products") or [dependency["product"]]
            linked.setdefault(dependency["package"], set()).update(names)
    return linked


def test_every_module_of_this_package_a_target_imports_is_linked_by_it(spec):
    """A module of this repository's package that a target's sources import is one of the products it links: Xcode
    finds an unlinked module only by chance (when another product happens to build it first)."""
    with open(os.path.join(IOS, spec["packages"]["MyDay"]["path"], "Package.swift"), encoding="utf-8") as file:
        libraries = set(re.findall(r'\.library\(name: "(\w+)"', file.read()))
    for name, target in spec["targets"].items():
        folders = [source if isinstance(source, str) else source["path"] for source in target["sources"]]
        imported = set()
        for relative, text in swift_sources().items():
            if any(relative == folder or relative.startswith(folder.rstrip("/") + "/") for folder in folders):
                imported |= set(re.findall(r"^import (\w+)", text, re.MULTILINE)) & libraries
        missing = imported - linked_products(target).get("MyDay", set())
        assert not missing, f"{name} imports {sorted(missing)} without linking them"


def test_swift_6_with_complete_concurrency_checking(spec):
    """The app is built in the Swift 6 language mode with complete data-race checking."""
    settings = spec["settings"]["base"]
    assert str(settings["SWIFT_VERSION"]) == "6.0"
    assert settings["SWIFT_STRICT_CONCURRENCY"] == "complete"


def test_files_the_spec_names_exist(spec):
    """Every source folder, Info.plist and entitlements file the spec names is there (optional ones aside)."""
    for name, target in spec["targets"].items():
        for source in target["sources"]:
            source = {"path": source} if isinstance(source, str) else source
            if not source.get("optional"):
                assert os.path.exists(path(source["path"])), f"{name}: {source['path']}"
        for key in ("INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"):
            value = target["settings"]["base"].get(key)
            if value:
                assert os.path.isfile(path(value)), f"{name}: {key} {value}"


def test_plist_build_settings_are_defined(spec):
    """Each $(MYDAY_…) setting the plists and entitlements use is defined in project.yml."""
    defined = set(spec["settings"]["base"])
    for relative in files_under_ios():
        if relative.endswith((".plist", ".entitlements")):
            with open(path(relative), encoding="utf-8") as file:
                used = set(re.findall(r"\$\((MYDAY_[A-Z_]+)\)", file.read()))
            assert used <= defined, f"{relative} uses undefined {sorted(used - defined)}"


def test_info_plist_permissions_and_background_modes():
    """The texts iOS shows when asking for the microphone and speech recognition, and the background modes."""
    info = load_plist(APP_PLIST)
    assert info["NSMicrophoneUsageDescription"] == "My Day records audio to create your diary."
    assert info["NSSpeechRecognitionUsageDescription"].strip()
    assert {"audio", "fetch", "processing"} <= set(info["UIBackgroundModes"])
    assert info["CFBundleDisplayName"] == "My Day"
    assert info["ITSAppUsesNonExemptEncryption"] is False
    assert info["NSAppTransportSecurity"] == {"NSAllowsLocalNetworking": True}
    # The recording's Live Activity (RecordingLiveActivity) asks for nothing more, but needs this key.
    assert info["NSSupportsLiveActivities"] is True


def test_info_plist_configuration_keys():
    """The server, App Group and Google keys the app reads, each from its build setting."""
    info = load_plist(APP_PLIST)
    assert info["MyDayServerURL"] == "$(MYDAY_SERVER_URL)"
    assert info["GIDClientID"] == "$(MYDAY_GOOGLE_CLIENT_ID)"
    schemes = [scheme for kind in info["CFBundleURLTypes"] for scheme in kind["CFBundleURLSchemes"]]
    assert "$(MYDAY_GOOGLE_REVERSED_CLIENT_ID)" in schemes


def test_background_task_ids_match_the_code():
    """Each permitted background task id is the bundle id plus a suffix the Swift code registers."""
    prefix = "$(PRODUCT_BUNDLE_IDENTIFIER)"
    identifiers = load_plist(APP_PLIST)["BGTaskSchedulerPermittedIdentifiers"]
    assert identifiers
    sources = swift_sources("MyDay", "Shared")
    for identifier in identifiers:
        assert identifier.startswith(prefix), identifier
        suffix = identifier[len(prefix):]
        assert re.fullmatch(r"\.[A-Za-z0-9.-]+", suffix), identifier
        users = [name for name, text in sources.items() if suffix + '"' in text]
        assert users, f'no Swift source under Apps/iOS ends a string with "{suffix}", the id the Info.plist permits'


def test_info_plist_keys_the_code_reads_exist():
    """Every Info.plist key the Swift code reads by name is in the Info.plist of the target that reads it."""
    pattern = re.compile(r'(?:forInfoDictionaryKey:\s*|infoDictionary\?\s*\[\s*)"([^"]+)"')
    app_keys, widget_keys = set(load_plist(APP_PLIST)), set(load_plist(WIDGET_PLIST))
    for name, text in swift_sources().items():
        folder = name.split(os.sep)[0]
        for key in pattern.findall(text):
            if folder in ("MyDay", "Shared"):
                assert key in app_keys, f"{name} reads {key}, missing from {APP_PLIST}"
            if folder in ("MyDayControl", "Shared"):
                assert key in widget_keys, f"{name} reads {key}, missing from {WIDGET_PLIST}"


def test_control_extension_info_plist():
    """The extension is a WidgetKit extension, so iOS offers its Record control."""
    info = load_plist(WIDGET_PLIST)
    assert info["NSExtension"] == {"NSExtensionPointIdentifier": "com.apple.widgetkit-extension"}
    assert info["CFBundleShortVersionString"] == load_plist(APP_PLIST)["CFBundleShortVersionString"]


def test_entitlements():
    """Sign in with Apple and the server's mailed links for the app, and the same App Group for the app and the
    extension."""
    app = load_plist("MyDay/Resources/MyDay.entitlements")
    widget = load_plist("MyDayControl/MyDayControl.entitlements")
    assert app["com.apple.developer.applesignin"] == ["Default"]
    assert app["com.apple.developer.associated-domains"] == ["applinks:$(MYDAY_SERVER_HOST)"]
    assert app["com.apple.security.application-groups"] == ["group.$(MYDAY_BUNDLE_ID)"]
    assert widget["com.apple.security.application-groups"] == ["group.$(MYDAY_BUNDLE_ID)"]


def accessed_reasons(manifest):
    return {entry["NSPrivacyAccessedAPIType"]: set(entry["NSPrivacyAccessedAPITypeReasons"])
            for entry in manifest["NSPrivacyAccessedAPITypes"]}


def test_app_privacy_manifest():
    """The App Store privacy manifest: no tracking, the data the server keeps, the required-reason APIs used."""
    manifest = load_plist("MyDay/Resources/PrivacyInfo.xcprivacy")
    assert manifest["NSPrivacyTracking"] is False
    assert manifest["NSPrivacyTrackingDomains"] == []
    collected = {entry["NSPrivacyCollectedDataType"]: entry for entry in manifest["NSPrivacyCollectedDataTypes"]}
    assert {
        "NSPrivacyCollectedDataTypeAudioData",
        "NSPrivacyCollectedDataTypeEmailAddress",
        "NSPrivacyCollectedDataTypeUserID",
        "NSPrivacyCollectedDataTypeOtherUserContent",
    } <= set(collected)
    for kind, entry in collected.items():
        assert entry["NSPrivacyCollectedDataTypeLinked"] is True, kind
        assert entry["NSPrivacyCollectedDataTypeTracking"] is False, kind
        assert entry["NSPrivacyCollectedDataTypePurposes"] == ["NSPrivacyCollectedDataTypePurposeAppFunctionality"]
    reasons = accessed_reasons(manifest)
    assert "CA92.1" in reasons["NSPrivacyAccessedAPICategoryUserDefaults"]
    assert "C617.1" in reasons["NSPrivacyAccessedAPICategoryFileTimestamp"]
    assert all(reasons.values())


def test_control_extension_privacy_manifest():
    """The extension reads the App Group's defaults, a required-reason API (1C8F.1)."""
    manifest = load_plist("MyDayControl/PrivacyInfo.xcprivacy")
    assert manifest["NSPrivacyTracking"] is False
    assert accessed_reasons(manifest) == {"NSPrivacyAccessedAPICategoryUserDefaults": {"1C8F.1"}}


def test_app_icon_is_opaque_1024_png():
    """App Store Connect refuses an icon with an alpha channel; the single icon is 1024 × 1024."""
    folder = "MyDay/Resources/Assets.xcassets/AppIcon.appiconset"
    with open(path(f"{folder}/Contents.json"), encoding="utf-8") as file:
        images = json.load(file)["images"]
    assert [(image["idiom"], image["platform"], image["size"]) for image in images] == [("universal", "ios", "1024x1024")]
    with open(path(f"{folder}/{images[0]['filename']}"), "rb") as file:
        header = file.read(26)
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    width, height, depth, colour = struct.unpack(">IIBB", header[16:26])
    assert (width, height, depth) == (1024, 1024, 8)
    assert colour == 2, "the icon must be RGB without alpha (PNG colour type 2)"


def test_accent_colour_is_terracotta():
    """The accent colour, light and dark, is the terracotta of the web app."""
    with open(path("MyDay/Resources/Assets.xcassets/AccentColor.colorset/Contents.json"), encoding="utf-8") as file:
        colours = json.load(file)["colors"]

    def hex_of(entry):
        parts = entry["color"]["components"]
        return "#" + "".join(f"{int(parts[channel], 16):02X}" for channel in ("red", "green", "blue"))

    by_appearance = {
        tuple(a["value"] for a in entry.get("appearances", [])) or ("light",): hex_of(entry) for entry in colours
    }
    assert by_appearance == {("light",): "#C4643D", ("dark",): "#E08A66"}


def test_string_catalog_is_valid():
    """Localizable.xcstrings is JSON in Xcode's string catalog format, with English as the source language."""
    catalog = path("MyDay/Resources/Localizable.xcstrings")
    if not os.path.exists(catalog):
        pytest.skip("MyDay/Resources/Localizable.xcstrings does not exist yet")
    with open(catalog, encoding="utf-8") as file:
        strings = json.load(file)
    assert strings["sourceLanguage"] == "en"
    assert isinstance(strings["strings"], dict) and strings["strings"]
    assert strings["version"]
