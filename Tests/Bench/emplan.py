#!/usr/bin/env python3
"""The EM-Plan-shaped workload: seedgen on nested, merged input against the same objects flat.

usage (from the project root, after `swift build -c release`):
    Tests/Bench/emplan.py [N] [--runs R] [--seedgen PATH] [--keep DIR]

N players (default 200000) in teams of 25 with a coach, four teams to a group, each group's six
matches (at most 32,000: Match.number is an Integer 16), in the EM-Plan seed's own model
(Seeds/EMPlan). Two inputs hold the same objects:
- nested.plist, shaped like Seeds/EMPlan/setup.plist: a Groups section naming its teams by key
  before they exist, a keyed Teams section with each team's coach and players nested inside it
  (merged by key into the teams the groups named), a Matches section naming teams by key;
- flat.xml, the reference: one entity-XML element per object, every relationship named by key
  from the side that holds it (seedgen's fastest path: no nesting, no merge).
Runs both in alternation R times (default 3) after a warm-up each, checks that both stores hold
the same rows, and prints wall and CPU seconds, the median ratio nested/flat and the nested
build's peak memory. The last line is the figure to quote. Deterministic input."""
import os, shutil, sqlite3, statistics, subprocess, sys
from benchkit import ROOT, arg, options, run

MODEL = os.path.join(ROOT, "Seeds", "EMPlan", "EMPlan.xcdatamodeld")
POSITIONS = ["Tor", "Abwehr", "Mittelfeld", "Angriff"]
DIGEST = ("SELECT (SELECT count(*) FROM ZGROUP), (SELECT count(*) FROM ZTEAM t JOIN ZGROUP g ON g.Z_PK = t.ZGROUP),"
          " (SELECT count(*) FROM ZHUMAN h JOIN ZTEAM t ON t.Z_PK = h.ZTEAM), (SELECT sum(ZNUMBER) FROM ZHUMAN),"
          " (SELECT count(*) FROM ZTEAM t JOIN ZHUMAN c ON c.Z_PK = t.ZCOACH),"
          " (SELECT count(*) FROM ZMATCH m JOIN ZTEAM h ON h.Z_PK = m.ZHOME JOIN ZTEAM g ON g.Z_PK = m.ZGUEST),"
          " (SELECT sum(length(ZCLUB)) FROM ZHUMAN)")


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")

def objects(n):
    teams = max(4, n // 25) // 4 * 4
    groups = [("G%d" % g, ["Team %d" % t for t in range(g * 4, g * 4 + 4)]) for g in range(teams // 4)]
    squads = []
    for t in range(teams):
        coach = ("Coach", "Trainer %d" % t)
        players = [("Player %d" % (t * 25 + p), "Name %d" % (t * 25 + p), p + 1, POSITIONS[p % 4], "Club %d" % ((t * 7 + p) % 500))
                   for p in range(25)]
        squads.append(("Team %d" % t, coach, players))
    matches = []
    for name, teams in groups:
        for home, guest in [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]:
            number = len(matches) + 1
            if number > 32000:
                break
            matches.append((number, teams[home], teams[guest], "City %d" % (number % 97), "Stadium %d" % (number % 31),
                            "Gruppe %s" % name, "2012-06-%02dT%02d:45:00Z" % (number % 28 + 1, 16 + number % 4), name))
    return groups, squads, matches

def write_nested(path, groups, squads, matches):
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n<key>Groups</key>\n<array>\n')
        for name, teams in groups:
            f.write("<dict><key>name</key><string>%s</string><key>teams</key><array>%s</array></dict>\n"
                    % (name, "".join("<string>%s</string>" % t for t in teams)))
        f.write("</array>\n<key>Teams</key>\n<dict>\n")
        for name, (given, family), players in squads:
            f.write("<key>%s</key>\n<dict><key>coach</key><dict><key>givenname</key><string>%s</string><key>name</key><string>%s</string></dict>\n"
                    "<key>players</key><array>\n" % (name, given, family))
            for given, family, number, position, club in players:
                f.write("<dict><key>givenname</key><string>%s</string><key>name</key><string>%s</string><key>number</key><integer>%d</integer>"
                        "<key>position</key><string>%s</string><key>club</key><string>%s</string></dict>\n" % (given, family, number, position, club))
            f.write("</array></dict>\n")
        f.write("</dict>\n<key>Matches</key>\n<array>\n")
        for number, home, guest, city, stadium, stage, date, group in matches:
            f.write("<dict><key>number</key><integer>%d</integer><key>home</key><string>%s</string><key>guest</key><string>%s</string>"
                    "<key>city</key><string>%s</string><key>stadium</key><string>%s</string><key>stage</key><string>%s</string>"
                    "<key>date</key><date>%s</date><key>group</key><string>%s</string></dict>\n"
                    % (number, home, guest, city, stadium, stage, date, group))
        f.write("</array>\n</dict>\n</plist>\n")

def write_flat(path, groups, squads, matches):
    group_of = {team: name for name, teams in groups for team in teams}
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<EM>\n')
        for name, _ in groups:
            f.write('  <Group name="%s"/>\n' % name)
        for name, (given, family), players in squads:
            f.write('  <Team name="%s" group="%s"/>\n  <Coach givenname="%s" name="%s" team="%s"/>\n' % (name, group_of[name], given, family, name))
            for given, family, number, position, club in players:
                f.write('  <Player givenname="%s" name="%s" number="%d" position="%s" club="%s" team="%s"/>\n'
                        % (given, family, number, position, esc(club), name))
        for number, home, guest, city, stadium, stage, date, group in matches:
            f.write('  <Match number="%d" home="%s" guest="%s" city="%s" stadium="%s" stage="%s" date="%s" group="%s"/>\n'
                    % (number, home, guest, city, stadium, stage, date, group))
        f.write("</EM>\n")


def digest(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    row = db.execute(DIGEST).fetchone()
    db.close()
    return row

def generate(n, work):
    groups, squads, matches = objects(n)
    write_nested(os.path.join(work, "nested.plist"), groups, squads, matches)
    write_flat(os.path.join(work, "flat.xml"), groups, squads, matches)
    print(len(groups) + len(squads) * 27 + len(matches))

def main():
    if "--generate" in sys.argv:
        # In a process of its own: the children's peak memory must not start at this one's size.
        return generate(int(arg("--generate", "0")), sys.argv[-1])
    n, runs, seedgen, work = options(200_000, "seedgen-emplan-")
    try:
        objects_count = int(subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", str(n), work],
                                           capture_output=True, text=True, check=True).stdout)
        nested, flat = os.path.join(work, "nested.plist"), os.path.join(work, "flat.xml")
        a, b = os.path.join(work, "flat.sqlite"), os.path.join(work, "nested.sqlite")
        flat_cmd = [seedgen, "build", "--model", MODEL, "--output", a, flat]
        nested_cmd = [seedgen, "build", "--model", MODEL, "--output", b, nested]
        run(flat_cmd); run(nested_cmd)  # warm-up
        if digest(a) != digest(b):
            sys.exit("content mismatch: flat %s, nested %s" % (digest(a), digest(b)))
        ratios, fw, nw, peaks, fc, nc = [], [], [], [], [], []
        for _ in range(runs):
            f, _, fcpu = run(flat_cmd)
            s, rss, scpu = run(nested_cmd)
            fw.append(f); nw.append(s); peaks.append(rss); ratios.append(s / f); fc.append(fcpu); nc.append(scpu)
        print("emplan: %d players, %d objects (nested %.0f MB, flat %.0f MB of input)"
              % (n, objects_count, os.path.getsize(nested) / 1e6, os.path.getsize(flat) / 1e6))
        print("flat (reference) wall s: median %.3f (min %.3f, max %.3f), cpu s median %.3f" % (statistics.median(fw), min(fw), max(fw), statistics.median(fc)))
        print("nested wall s: median %.3f (min %.3f, max %.3f), cpu s median %.3f" % (statistics.median(nw), min(nw), max(nw), statistics.median(nc)))
        print("ratio nested/flat: %.2f median of %d, nested peak %.0f MiB" % (statistics.median(ratios), runs, max(peaks) / 1024))
    finally:
        if "--keep" not in sys.argv:
            shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
