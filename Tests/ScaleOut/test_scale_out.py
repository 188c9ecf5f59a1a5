"""The scale-out run, small: two API nodes behind nginx (deploy/nginx/myday.conf, TLS), two workers, started as
deploy/systemd's units start them, PostgreSQL and the bucket; six people recording and exporting at once while an API
node (holding their requests) and a worker (building an export) are killed with SIGKILL and started again.
cluster.check() and check_exports() hold the promises; bench/scaleout runs the same at a larger size and reports its
figures."""

import shutil
import subprocess
import tempfile

import cluster


def test_many_people_record_while_nodes_die():
    folder = tempfile.mkdtemp(prefix="myday-scale-")
    try:
        results = cluster.run(cluster.Settings(), folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert results["entries"] == 24 and results["exports"] >= 6
    assert "build_export" in results["jobs_taken_over"] and results["retries"] > 0
    assert set(results["peak_rss_mb"]) == {"bucket", "nginx", "api-0", "api-1", "worker-0", "worker-1"}


def test_the_proxy_configuration_is_the_one_operators_install():
    with open(f"{cluster.ROOT}/deploy/nginx/myday.conf") as source:
        site = source.read()
    rendered = cluster.render_nginx(site, 8443, [9001, 9002], "/c.pem", "/k.pem", 8080)
    assert "server 127.0.0.1:9001 max_fails=1 fail_timeout=10s;" in rendered and "server 127.0.0.1:9002" in rendered
    assert "10.0.0.11" not in rendered and "[::]" not in rendered
    assert "listen 127.0.0.1:8443 ssl http2;" in rendered and "listen 127.0.0.1:8080;" in rendered
    for directive in ("proxy_buffering off;", "proxy_request_buffering off;", "X-Forwarded-For"):
        assert directive in rendered


def test_the_systemd_units_are_valid():
    folder = tempfile.mkdtemp(prefix="myday-units-")
    try:
        binary = f"{cluster.ROOT}/.build/debug/myday-server"
        units = []
        for name in ("myday.service", "myday-server.service", "myday-worker.service"):
            with open(f"{cluster.ROOT}/deploy/systemd/{name}") as source:
                text = source.read().replace("/usr/local/bin/myday-server", binary)
            units.append(f"{folder}/{name}")
            with open(units[-1], "w") as out:
                out.write(text)
        verified = subprocess.run(["systemd-analyze", "verify", *units], capture_output=True, text=True)
        problems = [line for line in verified.stderr.splitlines() if "myday" in line]
        assert verified.returncode == 0 and not problems, verified.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)
