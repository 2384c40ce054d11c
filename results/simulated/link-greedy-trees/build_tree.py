#!/usr/bin/python3
# The prototype that wrote this directory's trees (kept as it ran; see README.md): a gather tree
# for p equal blocks of B bytes, root r, built from the schedule of the LogP bound
# (tree::LogPLowerBound): a node with deadline D takes its messages latest first, one every
# step (o), each as large as a sender can have gathered by its send time (A(t), the same rule one
# level down), a message of x bytes costing the fit's measured one-way curve (CURVE=1; made
# non-decreasing in x) or L + 2o + x * beta. Then the root's children are placed left and right
# of the root so that every subtree is a contiguous rank range (an ordered tree), each node the
# first rank of its range. Output: one line per rank, "v c1 c2 ...", children in receive order.
# Usage: CURVE=1 FIT=fit.txt build_tree.py P B OUT BETA ROOT   (BETA unused with CURVE=1)
import sys, math, functools
sys.setrecursionlimit(10000)
import os
o=0.300146; alpha=float(os.environ.get("ALPHA","2.64946")); L=alpha-2*o; step=float(os.environ.get("STEP",o))
B=int(sys.argv[2]) if len(sys.argv)>2 else 40
w=B*float(sys.argv[4] if len(sys.argv)>4 else 0.000375043)
p=int(sys.argv[1]) if len(sys.argv)>1 else 560
dt=0.01
import bisect
pts=[tuple(map(float,(l.split('=')[1].split()[0], l.split()[1]))) for l in open(os.environ.get("FIT","/work/main/results/simulated/radix-560-current/default/fit.txt")) if l.startswith('point=')]
PX=[a for a,b in pts]; PY=[b for a,b in pts]
def oneway(nbytes):
    if nbytes<=PX[0]: return PY[0]
    k=bisect.bisect_left(PX,nbytes)
    if k>=len(PX): k=len(PX)-1
    x0,x1,y0,y1=PX[k-1],PX[k],PY[k-1],PY[k]
    return y0+(y1-y0)*(nbytes-x0)/(x1-x0)
CURVE=os.environ.get("CURVE")=="1"
OWM=[0.0]
for _x in range(1, 70000):
    OWM.append(max(OWM[-1], oneway(_x*B)))
def owmono(xblocks):
    return OWM[min(xblocks, len(OWM)-1)]
def msg(xblocks):
    """(time from send to wire end, link occupancy)"""
    if CURVE:
        ow=owmono(xblocks)
        return ow-o, max(0.0, ow-PY[0])
    return o+L+xblocks*w, xblocks*w
A=[]
def Aat(t):
    if t<0: return 0
    k=int(t/dt+1e-9)
    return A[min(k,len(A)-1)]
def children(D, need):
    """greedy latest-first messages for a node with deadline D; returns list of (x, send_time) latest first"""
    out=[]; lf=D; j=0; tot=0
    while tot<need:
        done=D-j*step; j+=1
        we=min(lf, done-o)
        x=0
        # max x with x <= A(we - x w - o - L)
        lo,hi=0,need-tot
        while lo<hi:
            m=(lo+hi+1)//2
            if m<=Aat(we-msg(m)[0]): lo=m
            else: hi=m-1
        x=lo
        if x<=0: break
        out.append((x, we-msg(x)[0])); tot+=x; lf=we-msg(x)[1]
    return out, tot
t=0
while True:
    # A(t) = 1 + most blocks by deadline t
    _,tot=children(t, 10**9) if t>0 else ([],0)
    A.append(1+tot)
    if A[-1]>=p: break
    t+=dt
# build tree for p: minimal D with capacity>=p-1
D=(len(A)-1)*dt
print("deadline", round(D,3), file=sys.stderr)
parent=[-1]*p; order={}
def build(lo, n, Dl):
    # node lo owns [lo, lo+n-1]; children by greedy at deadline Dl
    if n==1: order[lo]=[]; return
    ch,tot=children(Dl, n-1)
    assert tot>=n-1, (lo,n,Dl,tot)
    # trim: latest messages are biggest; reduce from the earliest (last in list) so total == n-1
    excess=tot-(n-1); ch2=[]
    for x,s in reversed(ch):  # earliest first
        if excess>=x: excess-=x; continue
        if excess>0: x-=excess; excess=0
        ch2.append((x,s))
    # ch2 earliest first; assign contiguous ranges
    nxt=lo+1; kids=[]
    for x,s in ch2:
        build(nxt, x, s); parent[nxt]=lo; kids.append(nxt); nxt+=x
    order[lo]=kids
root=int(sys.argv[5]) if len(sys.argv)>5 else 0
ch,tot=children(D, p-1)
excess=tot-(p-1); ch2=[]
for x,s_ in reversed(ch):
    if excess>=x: excess-=x; continue
    if excess>0: x-=excess; excess=0
    ch2.append((x,s_))
# ch2 earliest (smallest) first; place largest first into sides
caps={'L':root,'R':p-1-root}; placed={'L':[],'R':[]}
for x,s_ in sorted(ch2, key=lambda c:-c[0]):
    side=max(caps,key=lambda k:caps[k])
    x=min(x,caps[side])
    if x<=0: continue
    placed[side].append((x,s_)); caps[side]-=x
for side in caps:
    while caps[side]>0: placed[side].append((1,0.0)); caps[side]-=1
kids=[]
nxt=0
for x,s_ in placed['L']:
    build(nxt,x,s_); kids.append((s_,nxt)); nxt+=x
assert nxt==root
nxt=root+1
for x,s_ in placed['R']:
    build(nxt,x,s_); kids.append((s_,nxt)); nxt+=x
assert nxt==p
order[root]=[k for _,k in sorted(kids)]
with open(sys.argv[3] if len(sys.argv)>3 else '/tmp/gt/tree.txt','w') as f:
    for v in range(p):
        f.write(" ".join(map(str,[v]+order[v]))+"\n")
print("root degree",len(order[root]), file=sys.stderr)
