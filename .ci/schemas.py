#!/usr/bin/env python3
"""The published JSON Schemas of dominoes results (issue 41), checked by a
validator no code of Boneyard's wrote: Python's `jsonschema` from PyPI.

Every match result, and every game record in it, that the served demo's
season exports (`/leagues/L/seasons/S/results.json`) give must validate
against the schemas the app serves at /schema/, and so must the game
records of the API's matches; so must the example inputs
of `boneyard score`; and records that break RULES.md must not.

    schemas.py BASE_URL DEMO_SQLITE_FILE EXAMPLES_DIR
"""

import copy
import json
import pathlib
import sqlite3
import sys
import urllib.request

from jsonschema import Draft202012Validator
from referencing import Registry, Resource


def get(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.headers.get_content_type(), json.load(response)


def problems(validator, doc):
    return [f"{e.message} at {e.json_path}" for e in validator.iter_errors(doc)]


def main(base, database, examples):
    docs = {}
    for name in ("game-record.json", "match-result.json"):
        kind, doc = get(f"{base}/schema/{name}")
        if kind != "application/schema+json":
            sys.exit(f"/schema/{name} is served as {kind}")
        Draft202012Validator.check_schema(doc)
        docs[name] = doc
    registry = Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc)) for doc in docs.values()
    )
    games = Draft202012Validator(docs["game-record.json"], registry=registry)
    results = Draft202012Validator(docs["match-result.json"], registry=registry)

    failures = []
    counted = {"seasons": 0, "results": 0, "records": 0, "examples": 0}
    first = None
    with sqlite3.connect(database) as db:
        seasons = db.execute(
            "SELECT l.short_name, s.id FROM seasons s JOIN leagues l ON l.id = s.league_id "
            "ORDER BY l.short_name, s.id"
        ).fetchall()
    for short, season in seasons:
        _, doc = get(f"{base}/leagues/{short}/seasons/{season}/results.json")
        counted["seasons"] += 1
        for match in doc["matches"]:
            result = match.get("result")
            if result is None:
                continue
            counted["results"] += 1
            where = f"{short} season {season} match {match['id']}"
            failures += [f"{where}: {p}" for p in problems(results, result)]
            for b, board in enumerate(result["boards"], 1):
                for g, game in enumerate(board["games"], 1):
                    if "final_score" in game:
                        continue
                    counted["records"] += 1
                    first = first or game
                    failures += [
                        f"{where} board {b} game {g}: {p}" for p in problems(games, game)
                    ]
    # The API's matches (`/api/v1/leagues/L/matches/F`) carry each game's
    # record as RULES.md defines it: the first hundred played matches' (the
    # API's rate limit allows a burst of 300).
    with sqlite3.connect(database) as db:
        played = db.execute(
            "SELECT l.short_name, f.id FROM fixtures f JOIN leagues l ON l.id = f.league_id "
            "WHERE f.status = 'played' ORDER BY f.id LIMIT 100"
        ).fetchall()
    counted["api matches"] = 0
    counted["api records"] = 0
    for short, fixture in played:
        _, doc = get(f"{base}/api/v1/leagues/{short}/matches/{fixture}")
        result = doc["data"].get("result")
        if result is None:
            continue
        counted["api matches"] += 1
        for board in result["boards"]:
            for game in board["games"]:
                if game["score_only"]:
                    continue
                counted["api records"] += 1
                where = f"API {short} match {fixture} board {board['number']} game {game['number']}"
                failures += [f"{where}: {p}" for p in problems(games, game["record"])]
    if counted["api records"] == 0:
        failures.append("the API gave no game record of the demo's played matches")

    for path in sorted(pathlib.Path(examples).glob("*.json")):
        if path.name.endswith(".result.json"):
            continue
        counted["examples"] += 1
        failures += [f"{path}: {p}" for p in problems(games, json.loads(path.read_text()))]

    # Records that break RULES.md are refused.
    if first is None:
        failures.append("the demo exported no game record")
    else:
        broken = []
        b = copy.deepcopy(first)
        b["format"] = "dominoes"
        broken.append(("an unknown format", b))
        b = copy.deepcopy(first)
        b["players"] = b["players"][:1] * 2
        broken.append(("a player twice", b))
        b = copy.deepcopy(first)
        b["hands"] = [{"plays": [{"by": b["players"][0], "points": 7}]}]
        b["format"] = "fives-and-threes"
        broken.append(("a fives-and-threes play of 7", b))
        b = copy.deepcopy(first)
        b["draw"], b["first_pose"] = {}, b["players"][0]
        broken.append(("both a draw and a first poser", b))
        for what, record in broken:
            if not problems(games, record):
                failures.append(f"a record with {what} passed the schema")
        match = {"home": "A", "away": "B", "boards": [
            {"kind": "singles", "home": ["x"], "away": ["y"], "games": [broken[2][1]]}]}
        if not problems(results, match):
            failures.append("a match result with a broken record passed the schema")

    for f in failures[:40]:
        print(f, file=sys.stderr)
    if failures:
        sys.exit(f"{len(failures)} problems with the published schemas")
    if counted["results"] == 0:
        sys.exit("the demo's seasons exported no match result")
    print(
        "schemas: {results} match results and {records} game records of {seasons} demo "
        "seasons, {api records} game records of {api matches} matches from the API, and "
        "{examples} example records, valid; broken records refused".format(**counted)
    )


if __name__ == "__main__":
    main(*sys.argv[1:4])
