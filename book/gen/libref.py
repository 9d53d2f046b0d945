import re, sys, pathlib
root = pathlib.Path(__file__).resolve().parent.parent.parent / 'stdlib' / 'Rtc'
si = {}
for m in re.finditer(r'type (\w+) = Real\(unit = "([^"]*)"\) "([^"]*)"', (root/'SI.mo').read_text()):
    si[m.group(1)] = (m.group(2), m.group(3))
connectors = {'RealInput':'input Real', 'RealOutput':'output Real', 'Pin':'', 'PositivePin':'', 'NegativePin':'', 'Flange':'', 'Flange_a':'', 'Flange_b':''}
def strip_comments(t):
    return re.sub(r'//[^\n]*', '', t)
for f in ['Blocks.mo', 'Electrical.mo', 'Mechanics.mo']:
    text = strip_comments((root/f).read_text())
    # classes
    for m in re.finditer(r'^\s*(partial )?(block|model|connector) (\w+)\s*(=[^;]*;|"([^"]*)"|\n\s*"([^"]*)")', text, re.M):
        name = m.group(3)
        print(f"\n### {m.group(1) or ''}{m.group(2)} {name}: {m.group(5) or m.group(6) or m.group(4)}")
        start = m.end()
        end = text.find(f'end {name};', start)
        body = text[start:end]
        body = body.split('equation')[0]
        for d in re.finditer(r'^\s*(parameter |flow )?([\w.]+) (\w+)(\[[^\]]*\])?(\((?:[^()]|\([^()]*\))*\))?( = [^"]*)?\s*"([^"]*)";', body, re.M):
            pre, ty, nm, dims, mod, bind, desc = d.groups()
            print(f"  {pre or ''}| {ty} | {nm}{dims or ''} | mod={mod} | bind={bind} | {desc}")
        for d in re.finditer(r'extends ([^;]*);', body):
            print('  EXTENDS', d.group(1))
