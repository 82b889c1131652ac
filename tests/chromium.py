"""Headless Chromium driven over the DevTools protocol, standard library only.

Chromium's ``--remote-debugging-pipe`` reads JSON commands from file descriptor 3 and
writes replies to descriptor 4, each message ended by a NUL byte; :class:`Browser` opens
those two pipes, so no websocket client or browser driver is needed.

>>> find_chromium() is None or find_chromium().endswith(("chromium", "chromium-browser", "chrome"))
True
"""

from __future__ import annotations

import base64
import http.server
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any


def find_chromium() -> str | None:
    """The Chromium binary (the real one, not Debian's shell wrapper), or None."""
    for path in ("/usr/lib/chromium/chromium", "/usr/bin/chromium"):
        if os.access(path, os.X_OK):
            return path
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class Browser:
    """One headless Chromium with one page; ``with Browser(...) as b:`` closes it."""

    def __init__(self, profile: Path, width: int = 1280, height: int = 900, offline: bool = True):
        binary = find_chromium()
        if binary is None:
            raise RuntimeError("chromium is not installed")
        to_child, self._w = os.pipe()
        self._r, from_child = os.pipe()
        os.set_inheritable(to_child, True)
        os.set_inheritable(from_child, True)

        def fds() -> None:  # in the child: the protocol's descriptors 3 and 4
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        # no network beyond the local file server: every other host resolves nowhere
        rules = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"] if offline else []
        self.proc = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--hide-scrollbars", f"--window-size={width},{height}", f"--user-data-dir={profile}",
             "--no-first-run", "--disable-extensions", *rules, "about:blank"],
            close_fds=False, preexec_fn=fds, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self._n = 0
        self._buf = b""
        #: the protocol's events received so far (``Network.requestWillBeSent`` once the page's
        #: Network domain is enabled): the messages that answer no command
        self.events: list[dict[str, Any]] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.proc.kill()
        self.proc.wait(timeout=30)

    def send(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> Any:
        """Send one command (to the page, once attached) and return its result."""
        self._n += 1
        msg: dict[str, Any] = {"id": self._n, "method": method, "params": params or {}}
        if getattr(self, "session", None):
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self._buf:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"chromium did not answer {method}")
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self._buf += chunk
            raw, self._buf = self._buf.split(b"\0", 1)
            reply = json.loads(raw)
            if "id" not in reply and "method" in reply:
                self.events.append(reply)
            if reply.get("id") == self._n:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result")

    def eval(self, expression: str, timeout: float = 60) -> Any:
        """The value of a JavaScript expression (awaited when it is a promise)."""
        out = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True, "timeout": timeout * 1000}, timeout)
        if "exceptionDetails" in out:
            raise RuntimeError(f"{expression[:80]}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def goto(self, url: str, settle: float = 0.3) -> None:
        """Open ``url`` and wait until the page and its images have loaded."""
        self.send("Page.navigate", {"url": url})
        self.wait("document.readyState === 'complete' && [...document.images].every(i => i.complete)")
        time.sleep(settle)

    def wait(self, condition: str, timeout: float = 60) -> None:
        """Wait until a JavaScript condition holds."""
        deadline = time.monotonic() + timeout
        while not self.eval(f"!!({condition})"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {condition}")
            time.sleep(0.1)

    def requested(self) -> list[str]:
        """Every URL the page asked for since ``Network.enable`` (as the browser saw it, before
        any answer: a request to an unreachable host is listed too)."""
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"]

    def screenshot(self, path: Path, full: bool = False) -> None:
        """Save a PNG of the window (or of the whole page)."""
        shot = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full})
        path.write_bytes(base64.b64decode(shot["data"]))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_: Any) -> None:
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """A plain file server (``python -m http.server``) on 127.0.0.1 for ``folder``: its URL."""
    handler = partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
