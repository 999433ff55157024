"""Drives a running Label Studio through its API, in Label Studio's own Python environment
(it has ``label-studio-sdk``; trustmh's does not need it): run by test_label_studio_server.py.

    python label_studio_driver.py SPEC.json

SPEC: ``{"url", "admin_token", "config", "tasks", "answers", "cancel", "export"}``: the labelling
configuration (XML text) and the tasks ``trustmh labels export`` wrote; ``answers`` maps a
user (``"admin"`` or ``"second"``) to ``{item: {field: value}}``; ``cancel`` lists items the
second user skips. It creates a project with the configuration, imports the tasks with the
SDK, signs the second user up, submits each user's annotations with that user's own API token,
exports the project as JSON to ``export`` and prints the user ids as JSON.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import requests
from label_studio_sdk import LabelStudio


def second_user_token(url: str) -> tuple[str, int]:
    """Sign a second user up through the web form (its session), then read its API token."""
    session = requests.Session()
    page = session.get(f"{url}/user/signup/", timeout=30)
    csrf = session.cookies.get("csrftoken") or re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
    form = {"email": "second@example.com", "password": "second-pass-123!", "csrfmiddlewaretoken": csrf}
    signed = session.post(f"{url}/user/signup/", data=form, headers={"Referer": f"{url}/user/signup/"}, timeout=30)
    signed.raise_for_status()
    token = session.get(f"{url}/api/current-user/token", timeout=30).json()["token"]
    whoami = requests.get(f"{url}/api/current-user/whoami", headers={"Authorization": f"Token {token}"}, timeout=30)
    return token, int(whoami.json()["id"])


def result_of(answers: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"from_name": field, "to_name": "trustmh_answer", "type": "choices", "value": {"choices": [str(value)]}}
        for field, value in answers.items()
    ]


def main() -> None:
    spec = json.loads(open(sys.argv[1], encoding="utf-8").read())
    url = spec["url"]
    admin = LabelStudio(base_url=url, api_key=spec["admin_token"])
    project = admin.projects.create(title="trustmh labels round trip", label_config=spec["config"])
    admin.projects.import_tasks(id=project.id, request=spec["tasks"])
    token, second_id = second_user_token(url)
    clients = {"admin": admin, "second": LabelStudio(base_url=url, api_key=token)}
    tasks = list(admin.tasks.list(project=project.id))
    for task in tasks:
        item = task.data["trustmh_item"]
        for user, client in clients.items():
            if user == "second" and item in spec["cancel"]:
                client.annotations.create(id=task.id, result=[], was_cancelled=True)
            elif item in spec["answers"][user]:
                client.annotations.create(id=task.id, result=result_of(spec["answers"][user][item]))
    exported = requests.get(
        f"{url}/api/projects/{project.id}/export",
        params={"exportType": "JSON", "download_all_tasks": "true"},
        headers={"Authorization": f"Token {spec['admin_token']}"},
        timeout=120,
    )
    exported.raise_for_status()
    with open(spec["export"], "w", encoding="utf-8") as handle:
        handle.write(exported.text)
    admin_id = requests.get(
        f"{url}/api/current-user/whoami", headers={"Authorization": f"Token {spec['admin_token']}"}, timeout=30
    ).json()["id"]
    print(json.dumps({"admin": admin_id, "second": second_id, "tasks": len(tasks)}))


if __name__ == "__main__":
    main()
