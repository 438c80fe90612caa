#!/usr/bin/env python3
"""Rewrites the claim tables of docs/experiments/{baws,kaws,motrr,pro}.md from the reports.

    scripts/sync-claims.py [--base REV] [--tag TEXT] [DOC.md ...]

Each table row "| experiment | claim | paper | ours before | ours now | verdict now |" takes
"ours now" and the verdict from docs/experiments/small/EXPERIMENT/report.md's claims table
(keyed by the claim's text); each "| experiment | claim | paper | ours, small | ours, paper size |
verdict at paper size |" row takes both from the small and paper reports. A verdict that differs
from the one in the reports at git revision REV (the model before the change being written up)
gets "(OLD VERDICT TAG)" after it, TAG defaulting to "before REV". The "Verdicts now:" line under
a small-size table is recounted. Rows without a report (BAWS and KAWS at paper size, when those
were not regenerated) keep their paper-size cells. The prose around the tables is not touched:
numbers quoted there still need reading against the reports.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(text):
    """claim text -> [claim, paper, ours, verdict] of a report's claims table."""
    rows, inside = {}, False
    for line in text.splitlines():
        if line.startswith('| claim | paper | ours | verdict |'):
            inside = True
            continue
        if inside:
            if not line.startswith('|'):
                inside = False
                continue
            if line.startswith('|---'):
                continue
            cells = [c.strip() for c in line.strip('|').split('|')]
            if len(cells) >= 4:
                rows[cells[0]] = cells
    return rows


_cache = {}


def report(exp, size, rev=None):
    key = (exp, size, rev)
    if key not in _cache:
        path = f'docs/experiments/{size}/{exp}/report.md'
        if rev:
            text = subprocess.run(['git', 'show', f'{rev}:{path}'], cwd=REPO,
                                  capture_output=True, text=True).stdout
        else:
            full = os.path.join(REPO, path)
            text = open(full).read() if os.path.exists(full) else ''
        _cache[key] = parse(text)
    return _cache[key]


def verdict(new, old, tag):
    v = new[3]
    if old and old[3] != v:
        v += f' ({old[3].replace("**", "")} {tag})'
    return v


def sync(doc, base, tag):
    lines = open(doc).read().split('\n')
    mode, counts, missing = None, None, []
    for i, line in enumerate(lines):
        if line.startswith('| experiment | claim | paper | ours before'):
            mode, counts = 'small', collections.Counter()
        elif line.startswith('| experiment | claim | paper | ours, small | ours, paper size'):
            mode, counts = 'paper', collections.Counter()
        elif mode and line.startswith('|') and not line.startswith('|---'):
            c = [x.strip() for x in line.strip('|').split('|')]
            if len(c) == 6:
                exp, claim = c[0], c[1]
                small = report(exp, 'small').get(claim)
                if mode == 'small':
                    if small:
                        c[4], c[5] = small[2], verdict(small, report(exp, 'small', base).get(claim), tag)
                        counts[small[3]] += 1
                    else:
                        missing.append((exp, claim))
                else:
                    if small:
                        c[3] = small[2]
                    paper = report(exp, 'paper').get(claim)
                    if paper:
                        c[4], c[5] = paper[2], verdict(paper, report(exp, 'paper', base).get(claim), tag)
                lines[i] = '| ' + ' | '.join(c) + ' |'
        elif mode and not line.startswith('|'):
            mode = None
        if line.startswith('Verdicts now:') and counts is not None:
            order = [x.split(':')[0].strip() for x in line[len('Verdicts now:'):].split(',')]
            order += [k for k in counts if k not in order]
            lines[i] = 'Verdicts now: ' + ', '.join(f'{k}: {counts[k]}' for k in order if counts[k])
            counts = None
    open(doc, 'w').write('\n'.join(lines))
    for exp, claim in missing:
        print(f'{doc}: no claim "{claim}" in small/{exp}/report.md', file=sys.stderr)
    return not missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--base', default='HEAD', help='revision whose reports give the old verdicts')
    ap.add_argument('--tag', help='text after an old verdict (default "before BASE")')
    ap.add_argument('docs', nargs='*')
    a = ap.parse_args()
    docs = a.docs or [os.path.join(REPO, 'docs/experiments', f'{g}.md')
                      for g in ('baws', 'kaws', 'motrr', 'pro')]
    tag = a.tag or f'before {a.base}'
    ok = all([sync(d, a.base, tag) for d in docs])
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
