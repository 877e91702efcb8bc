"""A local OpenBench site for tests: the real server and client of OpenBench
commit 9906bad1 (../shared/references/OpenBench-9906bad1.tar.xz), on
127.0.0.1, with what they would download from GitHub served by a local HTTP
server instead (Vireo's source zip, fastchess's source zip, the opening book).

One part of OpenBench cannot run offline: when a test is created the server
asks GitHub's API which commit a branch names, reads its commit message and
builds a zipball URL (verify_workload.collect_github_info). The server runs
with that one function replaced (tests/openbench_offline_server.py); the
rest, client included, is OpenBench's own code, unchanged.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import REPO, unavailable

REFERENCES = REPO.parent / "shared" / "references"
ARCHIVE = REFERENCES / "OpenBench-9906bad1.tar.xz"
FASTCHESS_ARCHIVE = REFERENCES / "fastchess-74deac23.tar.xz"
FASTCHESS_REF = "74deac23"
OFFLINE_SERVER = Path(__file__).resolve().parent / "openbench_offline_server.py"
USERNAME, PASSWORD = "vireo", "vireo-local-test"


@pytest.fixture(scope="session")
def vireo_build_home(tmp_path_factory):
    """One build cache (VIREO_BUILD_HOME) for the OpenBench tests of a session:
    the launcher the Makefile test builds and the engine OpenBench's client
    builds from the same sources share it, so the core compiles once a run.
    VIREO_BUILD_HOME, when set, is used instead (kept between runs)."""
    if os.environ.get("VIREO_BUILD_HOME"):
        return Path(os.environ["VIREO_BUILD_HOME"])
    # One fixed folder of the session: each test module importing this
    # fixture gets its own instance, and they must share the folder.
    home = tmp_path_factory.getbasetemp() / "vireo-builds"
    home.mkdir(exist_ok=True)
    return home


def require_openbench():
    """The archive and the PyPI packages (tests/runners/setup_openbench.sh)."""
    if not ARCHIVE.is_file():
        unavailable(f"{ARCHIVE} is missing")
    try:
        import cpuinfo, django, htmlmin, psutil, requests, scipy  # noqa: F401
    except ImportError as exc:
        unavailable(f"OpenBench's packages are missing ({exc}): bash tests/runners/setup_openbench.sh")


def unpack_openbench(dest: Path) -> Path:
    with tarfile.open(ARCHIVE) as tar:
        tar.extractall(dest, filter="data")
    return dest / "OpenBench-9906bad1"


def openbench_bench_parser(root: Path):
    """Client/bench.py's parse_stream_output, imported from the archive."""
    client = str(root / "Client")
    sys.path.insert(0, client)
    try:
        import importlib
        bench = importlib.import_module("bench")
        return bench.parse_stream_output
    finally:
        sys.path.remove(client)


class FileServer:
    """Serves a folder over HTTP on 127.0.0.1 (a thread of the test process)."""

    def __init__(self, folder: Path):
        handler = functools.partial(_QuietHandler, directory=str(folder))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def translate_path(self, path):
        # OpenBench asks for <repo>/archive/<ref>.zip/ (utils.url_join adds a
        # slash), which GitHub serves as the file
        local = super().translate_path(path)
        return local.rstrip("/") if os.path.isfile(local.rstrip("/")) else local

    def log_message(self, *args):
        pass


def vireo_source_zip(dest: Path):
    """(commit sha, zip path) of this tree as GitHub's zipball would give it:
    the working tree's tracked files (git stash create), else HEAD."""
    stash = subprocess.run(["git", "stash", "create"], cwd=REPO, capture_output=True, text=True)
    # (no local change, or no git identity to write the stash commit: HEAD)
    treeish = (stash.stdout.strip() if stash.returncode == 0 else "") or "HEAD"
    sha = subprocess.run(["git", "rev-parse", treeish], cwd=REPO, capture_output=True,
                         text=True, check=True).stdout.strip()
    path = dest / f"vireo-{sha}.zip"
    subprocess.run(["git", "archive", "--format=zip", f"--prefix=vireo-{sha[:7]}/", "-o", str(path), treeish],
                   cwd=REPO, check=True)
    return sha, path


def fastchess_source_zip(path: Path) -> None:
    """fastchess-74deac23.tar.xz repacked as the .zip GitHub serves for a ref."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(FASTCHESS_ARCHIVE) as tar, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for member in tar:
            if member.isfile():
                info = zipfile.ZipInfo(member.name, time.gmtime(member.mtime)[:6])
                info.external_attr = (member.mode & 0o777 | 0o100000) << 16
                out.writestr(info, tar.extractfile(member).read(), zipfile.ZIP_DEFLATED)


def book_zip(book: Path, path: Path) -> str:
    """The book zipped as OpenBench's book sources are; returns its sha256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        out.write(book, book.name)   # at the top: the client moves the first entry to Books/NAME
    return hashlib.sha256(book.read_text().encode("utf-8")).hexdigest()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OpenBenchServer:
    """OpenBench's Django server (SQLite), set up from the archive."""

    def __init__(self, root: Path, files: FileServer, book_name: str, book_sha: str, log: Path):
        self.root, self.log = root, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.sources = root / "local_sources.json"
        self.sources.write_text("{}")
        self._configure(files, book_name, book_sha)
        self.manage("migrate", "--verbosity", "0")
        self.manage("shell", "-c", (
            "from django.contrib.auth.models import User; from OpenBench.models import Profile; "
            f"u = User.objects.create_user('{USERNAME}', 'vireo@localhost', '{PASSWORD}'); "
            "Profile.objects.create(user=u, enabled=True, approver=True)"))
        self.process = subprocess.Popen(
            [sys.executable, str(OFFLINE_SERVER), str(root), str(self.port), str(self.sources)],
            cwd=root, stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_until_up()

    def _configure(self, files: FileServer, book_name: str, book_sha: str) -> None:
        config_path = self.root / "Config" / "config.json"
        config = json.loads(config_path.read_text())
        config["engines"] = ["Vireo"]
        config["books"] = [book_name]
        config["fastchess_repo_url"] = f"{files.url}/fastchess"
        config["fastchess_repo_ref"] = FASTCHESS_REF
        config_path.write_text(json.dumps(config, indent=4))
        # Vireo registered with the engine configuration the repository ships
        (self.root / "Engines" / "Vireo.json").write_text((REPO / "openbench" / "Vireo.json").read_text())
        (self.root / "Books" / f"{book_name}.json").write_text(json.dumps(
            {"sha": book_sha, "source": f"{files.url}/books/{book_name}.zip"}))

    def add_source(self, branch: str, sha: str, source_url: str, message: str) -> None:
        """What GitHub's API would answer for branch (read by the server at each request)."""
        sources = json.loads(self.sources.read_text())
        sources[branch] = {"sha": sha, "source": source_url, "message": message}
        self.sources.write_text(json.dumps(sources))

    def manage(self, *args) -> str:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=self.root,
                                capture_output=True, text=True, timeout=300)
        if result.returncode:
            raise AssertionError(f"manage.py {args[0]} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def query(self, code: str):
        """Runs code (which sets `out`) in the server's Django; returns out, via JSON."""
        script = f"import json\n{code}\nprint('JSON=' + json.dumps(out))"
        for line in self.manage("shell", "-c", script).splitlines():
            if line.startswith("JSON="):
                return json.loads(line[5:])
        raise AssertionError("no answer from manage.py shell")

    def _wait_until_up(self) -> None:
        import requests
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the OpenBench server exited:\n{self.log.read_text()[-3000:]}")
            try:
                requests.get(f"{self.url}/clientGetBuildInfo/", timeout=5)
                return
            except requests.ConnectionError:
                time.sleep(0.5)
        raise AssertionError(f"the OpenBench server did not answer:\n{self.log.read_text()[-3000:]}")

    def session(self):
        """A logged-in requests session, as a browser would hold one."""
        import requests
        session = requests.Session()
        session.get(f"{self.url}/login/", timeout=30)
        response = session.post(f"{self.url}/login/", timeout=30, data={
            "username": USERNAME, "password": PASSWORD,
            "csrfmiddlewaretoken": session.cookies.get("csrftoken", "")})
        response.raise_for_status()
        return session

    def close(self) -> None:
        stop_group(self.process)


class OpenBenchClient:
    """OpenBench's client (Client/client.py), unchanged, in its own folder."""

    def __init__(self, root: Path, folder: Path, server: OpenBenchServer, fastchess: str, env: dict,
                 log: Path):
        import shutil
        shutil.copytree(root / "Client", folder)
        if fastchess:
            # The client's own shortcut: a fastchess-ob at least as new as the
            # server asks for is used as it is (docs/distributed.md, "Tested offline").
            shutil.copy2(fastchess, folder / "fastchess-ob")
        self.folder, self.log = folder, log
        self.process = subprocess.Popen(
            [sys.executable, "client.py", "-U", USERNAME, "-P", PASSWORD, "-S", server.url,
             "-T", "1", "-N", "1", "--no-client-downloads"],
            cwd=folder, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True)

    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def close(self) -> None:
        stop_group(self.process)


def stop_group(process: subprocess.Popen) -> None:
    """Ends a process started with start_new_session, and what it started."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        except ProcessLookupError:
            pass
    else:
        try:   # the leader is gone; its children (fastchess, engines) may not be
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
