#!/usr/bin/env python3
"""Render book/gen/tpl/*.md into book/src/*.md, running every command shown for real.

Run from anywhere after `cargo build -p rtc`: `python3 book/gen/render.py`. The rtc used is
target/debug/rtc of this repository (override with the RTC_BIN_DIR environment variable).

Directives (each on its own line):
  @@include PATH [LANG]   fenced block with the file's text (PATH relative to book/gen/models)
  @@run DIR CMD           console block: "$ CMD" and its real output (stdout+stderr)
  @@runx DIR CMD          the same, followed by "$ echo $?" and the exit status
  @@rules                 the tables of tests/rules/chN.tsv: a summary, then one table per chapter
Consecutive @@run/@@runx lines share one console block. DIR is `repo` or `tmp`.
"""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TPL = HERE / 'tpl'
OUT = ROOT / 'book' / 'src'
MODELS = HERE / 'models'
DIRS = {'repo': str(ROOT), 'tmp': str(MODELS)}
ENV = dict(os.environ)
ENV['PATH'] = os.environ.get('RTC_BIN_DIR', str(ROOT / 'target' / 'debug')) + ':' + ENV['PATH']
ENV.pop('MODELICAPATH', None)
ENV['NO_COLOR'] = '1'
ENV['COLUMNS'] = '100'

log = []


def run(d, cmd, show_status):
    p = subprocess.run(['bash', '-c', cmd + ' 2>&1'], cwd=DIRS[d], env=ENV,
                       stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    text = p.stdout.decode()
    lines = ['$ ' + cmd]
    body = text.rstrip('\n')
    if body:
        lines.append(body)
    if show_status:
        lines.append('$ echo $?')
        lines.append(str(p.returncode))
    log.append((d, cmd, p.returncode))
    return '\n'.join(lines)


def render(src):
    out = []
    block = None
    for line in src.split('\n'):
        if line.startswith('@@run'):
            kind, d, cmd = line.split(' ', 2)
            part = run(d, cmd, kind == '@@runx')
            if block is None:
                block = [part]
            else:
                block.append(part)
            continue
        if block is not None:
            out.append('```console\n' + '\n'.join(block) + '\n```')
            block = None
        if line.strip() == '@@rules':
            out.append(rules_tables())
            continue
        if line.startswith('@@include'):
            parts = line.split()
            lang = parts[2] if len(parts) > 2 else 'modelica'
            text = (MODELS / parts[1]).read_text().rstrip('\n')
            out.append('```' + lang + '\n' + text + '\n```')
            continue
        out.append(line)
    if block is not None:
        out.append('```console\n' + '\n'.join(block) + '\n```')
    return '\n'.join(out)


CHAPTERS = {
    2: 'Lexical structure', 3: 'Operators and expressions',
    4: 'Classes, predefined types and declarations', 5: 'Scoping, name lookup and flattening',
    6: 'Interface or type relationships', 7: 'Inheritance, modification and redeclaration',
    8: 'Equations', 9: 'Connectors and connections', 10: 'Arrays',
    11: 'Statements and algorithm sections', 12: 'Functions', 13: 'Packages',
    14: 'Overloaded operators', 15: 'Stream connectors', 16: 'Synchronous language elements',
    17: 'State machines', 18: 'Annotations',
}


def rules_tables():
    """The rule tables of tests/rules, with a summary of the statuses per chapter."""
    rules = ROOT / 'tests' / 'rules'
    chapters = sorted(rules.glob('ch*.tsv'), key=lambda p: int(p.stem[2:]))
    kinds = ['checked', 'warned', 'refused', 'not yet', 'needs', 'not probed']
    summary = ['| chapter | rules | ' + ' | '.join(kinds) + ' |',
               '|---|---' + '|---' * len(kinds) + '|']
    totals = [0] * (len(kinds) + 1)
    body = []
    for tsv in chapters:
        n = int(tsv.stem[2:])
        rows = [l.split('\t') for l in tsv.read_text().splitlines()[1:]]
        counts = [sum(1 for r in rows if r[2] == k or (k == 'needs' and r[2].startswith('needs ')))
                  for k in kinds]
        totals = [a + b for a, b in zip(totals, [len(rows)] + counts)]
        summary.append(f'| {n} {CHAPTERS.get(n, "")} | {len(rows)} | '
                       + ' | '.join(str(c) for c in counts) + ' |')
        body.append(f'\n### {n}. {CHAPTERS.get(n, "")}\n')
        body.append('| § | rule | status | code | test |')
        body.append('|---|---|---|---|---|')
        for r in rows:
            sec, rule, status, code = r[0], r[1], r[2], r[3]
            test = r[4]
            code = f'`{code}`' if code else ''
            test = f'`{test}`' if test else ''
            rule = rule.replace('|', '\\|')
            body.append(f'| {sec} | {rule} | {status} | {code} | {test} |')
    summary.append('| all | ' + ' | '.join(str(t) for t in totals) + ' |')
    return '\n'.join(summary + body)


def main():
    names = sys.argv[1:] or sorted(p.name for p in TPL.glob('*.md'))
    for n in names:
        text = render((TPL / n).read_text())
        (OUT / n).write_text(text)
    for d, cmd, rc in log:
        print(f'{rc:3}  [{d}] {cmd}')


if __name__ == '__main__':
    main()
