"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (no websocket
library): headless Chromium keeps a page open, and the test asks it, at times of its choosing,
what the page currently shows (``evaluate``).  Chromium reads commands from its fd 3 and writes
answers to its fd 4, each a JSON message ended by a NUL byte.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any


class Browser:
    def __init__(self, chromium: str, url: str, profile: Path, *flags: str):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # move the child's ends above 4 first, so that dup2 onto 3 and 4 cannot clobber them
        high_r, high_w = fcntl_dup_above(to_chrome_r, 10), fcntl_dup_above(from_chrome_w, 10)

        def child_fds() -> None:
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--remote-debugging-pipe", *flags, url],
            # close_fds=False: Python's own descriptors are not inheritable anyway, and dup2 in
            # preexec_fn (which runs before close_fds would) leaves 3 and 4 inheritable
            close_fds=False, preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(high_r)
        os.close(high_w)
        self._buffer = b""
        self._next_id = 0
        self.session = self._attach(url)

    def _send(self, method: str, params: dict | None = None, session: str | None = None) -> Any:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _read(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_chrome, 65536)
            if not chunk:
                raise RuntimeError("chromium closed the debugging pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _attach(self, url: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            targets = self._send("Target.getTargets")["targetInfos"]
            pages = [t for t in targets if t["type"] == "page"]
            if pages:
                return self._send("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})[
                    "sessionId"]
            time.sleep(0.2)
        raise RuntimeError("no page target")

    def evaluate(self, expression: str) -> Any:
        result = self._send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.session)
        return result.get("result", {}).get("value")

    def close(self) -> None:
        try:
            self._send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)


def fcntl_dup_above(fd: int, minimum: int) -> int:
    import fcntl

    new = fcntl.fcntl(fd, fcntl.F_DUPFD, minimum)
    os.close(fd)
    return new
