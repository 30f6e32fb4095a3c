import re,glob,os,subprocess
rows=[]
for f in sorted(glob.glob('/tmp/pd/runs/*-*.log'), key=lambda p:(p.split('/')[-1].split('-')[0], ['old','new','newd1'].index(p.split('-')[-1][:-4]))):
    t=open(f,errors='replace').read()
    t=re.sub(r'\x1b\[[0-9;]*m','',t)
    head=t.splitlines()[0]
    m=re.search(r'scratch kept at (\S+)',t); sc=m.group(1) if m else None
    drops=nwp=0; per={}
    if sc and os.path.isdir(sc):
        for lf in glob.glob(sc+'/**/node-*.log',recursive=True):
            phase=lf.split('/')[-3]
            for line in open(lf,errors='replace'):
                d=re.search(r'limit: dropped (\d+) peer',line)
                if d: drops+=int(d.group(1)); per[phase]=per.get(phase,0)+int(d.group(1))
                if 'no write progress' in line: nwp+=1
    lim=re.search(r'limit ([\d.]+) MiB/node',t); pk=re.search(r'peak ([\d./]+) MiB',t)
    un=re.search(r'untrimmed log \(entries, max per node\) footprint ([\d/]+), survival ([\d/]+)',t)
    drv=re.search(r'driven at (\d+) ops/s',t)
    rc=re.search(r'rc=(\d+) end (\S+) load: (\S+)',t)
    margin=None
    if lim and pk: margin=float(lim.group(1))-max(float(x) for x in pk.group(1).split('/'))
    mu=max(int(x) for x in (un.group(1)+'/'+un.group(2)).split('/')) if un else None
    print(f"{os.path.basename(f):12} start_load={head.split('load: ')[1].split(' sha')[0].split()[0]} drops={drops} per_phase={per} no_write_progress={nwp} max_untrimmed={mu} (fp {un.group(1) if un else '-'} surv {un.group(2) if un else '-'}) limit-peak={margin if margin is None else round(margin,1)} MiB driven={drv.group(1) if drv else '-'} {'PASS' if rc and rc.group(1)=='0' else 'FAIL' if rc else 'running'} end_load={rc.group(3) if rc else '-'}")
