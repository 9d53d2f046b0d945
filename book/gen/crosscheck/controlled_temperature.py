"""An independent solution of the MSL's Modelica.Thermal.HeatTransfer.Examples.ControlledTemperature
(a resistor heated through an ideal switch by an on-off controller on a ramp), written from the
model's equations, with scipy at rtol = atol = 1e-12 and located switchings. It prints the
switching times: the book compares them with rtc's and with the MSL reference's (getting-started,
"What still differs"). Run: python3 book/gen/crosscheck/controlled_temperature.py (needs scipy)."""
import numpy as np
from scipy.integrate import solve_ivp
TAmb=293.15; C=1; G=0.1; V=10; R0=10; Tref=293.15; alpha=1/255; Ron=1e-5; Goff=1e-5; bw=2
def ramp(t): return 25 + 25*min(max(t-2,0)/6,1)
def power(T, on):
    R = R0*(1+alpha*(T-Tref))
    if on:  # switch closed: series Ron
        i = V/(R+Ron)
    else:   # open: conductance Goff in series: i = Goff*vsw, V = R i + vsw -> i = V/(R + 1/Goff)
        i = V/(R+1/Goff)
    return i*i*R
def f(t, x, on): return [(power(x[0], on) - G*(x[0]-TAmb))/C]
t=0; T=TAmb; y=True  # onOff y: initially? y = u < ref - bw/2 initially -> at T=20C, ref=25 => u<24 -> y true; heater on when y true (not y -> switch open)
evs=[]
while t<10:
    if y:
        ev=lambda t,x,on: (x[0]-273.15) - (ramp(t)+bw/2)
    else:
        ev=lambda t,x,on: (x[0]-273.15) - (ramp(t)-bw/2)
    ev.terminal=True
    ev.direction = 1 if y else -1
    s=solve_ivp(f,(t,10),[T],args=(y,),events=ev,rtol=1e-12,atol=1e-12,max_step=0.01,method='DOP853')
    if s.status==1:
        t=s.t_events[0][0]; T=s.y_events[0][0][0]; y=not y; evs.append(t)
        # move slightly
    else:
        break
print(' '.join(f'{e:.7f}' for e in evs))
