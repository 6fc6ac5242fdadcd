"""The shipped nginx config is valid for nginx itself (``nginx -t``), with the test's ports and folders put
in, and the systemd unit starts one app process per instance on the port nginx expects, on loopback only.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from rigs.deployment import SITE_CONFIG, nginx_command, render
from rigs.processes import ROOT

UNIT = ROOT / "deploy" / "systemd" / "authority-dashboard@.service"


def test_nginx_accepts_the_deployed_config(tmp_path: Path) -> None:
    config = render(tmp_path, app_ports=[18501, 18502, 18503], listen_port=18080)
    checked = subprocess.run(nginx_command(config, "-t"), capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
    site = (tmp_path / "authority-dashboard.conf").read_text()
    assert all(f"server 127.0.0.1:{port} " in site for port in (18501, 18502, 18503))


def test_nginx_refuses_a_broken_config(tmp_path: Path) -> None:
    """The check above can fail: the same render with one brace missing is refused."""
    config = render(tmp_path, app_ports=[18501, 18502], listen_port=18080)
    site = tmp_path / "authority-dashboard.conf"
    site.write_text(site.read_text().replace("location / {", "location / ", 1))
    checked = subprocess.run(nginx_command(config, "-t"), capture_output=True, text=True, timeout=30)
    assert checked.returncode != 0 and "test failed" in checked.stderr


def test_each_systemd_instance_serves_its_own_port_on_loopback_behind_nginx() -> None:
    unit = UNIT.read_text()
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert "streamlit run app.py" in start
    assert "--server.port %i" in start and "--server.address 127.0.0.1" in start
    assert "--server.headless true" in start
    assert re.search(r"^EnvironmentFile=", unit, re.MULTILINE)
    # The instances the operations guide starts are the ports nginx sends to.
    upstream = set(re.findall(r"server 127\.0\.0\.1:(\d+)", SITE_CONFIG.read_text()))
    target = (ROOT / "deploy" / "systemd" / "authority-dashboard.target").read_text()
    assert upstream == set(re.findall(r"authority-dashboard@(\d+)\.service", target))
