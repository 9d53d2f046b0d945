//! Events in bounded work (Cellier & Kofman §10.8) around a stepper: located state events,
//! time events, and the event iteration of specification 8.6 at every instant.

use super::Stepper;
use crate::plan::{EventId, Plan, SlotKind, Status, Unsettled};
use crate::symbolic::EntityVec;
use crate::system::SVarKind;

/// One event as the log records it.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRecord {
    /// The located event time (deferred events: the end of the step that found them).
    pub time: f64,
    pub index: EventId,
    pub condition: String,
    pub outcome: Outcome,
}

impl EventRecord {
    /// Located and handled (including the event that was then found chattering).
    pub fn handled(&self) -> bool {
        self.outcome != Outcome::Deferred
    }
}

/// What became of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Located, the step repeated up to it, its actions applied.
    Handled,
    /// A second event in a step: applied at the step's end, unlocated.
    Deferred,
    /// Handled, then found chattering: its states are held from here (`--zeno hold`).
    Held,
    /// Handled, then found chattering: the run stops (`--zeno stop`).
    Stopped,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Handled => "handled",
            Outcome::Deferred => "deferred",
            Outcome::Held => "chattering: held",
            Outcome::Stopped => "chattering: stopped",
        }
    }
}

/// What the chattering rule does with an event that comes back faster than the step can
/// resolve (a ball coming to rest: Zeno behaviour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Zeno {
    /// Stop the run with status 4, naming the event.
    #[default]
    Stop,
    /// Hold the states the event's condition reads and the states it re-initialises at their
    /// values just after the event, to the end of the run; the event is no longer located.
    Hold,
}

/// The chattering rule's finding: which event, when, and what it held.
#[derive(Clone, Debug, PartialEq)]
pub struct Chatter {
    pub event: EventId,
    pub time: f64,
    /// Time since the event's previous occurrence.
    pub gap: f64,
    /// Names of the held states (`--zeno hold`).
    pub held: Vec<String>,
}

/// The event time in a step as a fraction θ of it, from the event function's values `z0`,
/// `z1` at its ends: regula falsi, θ = z0/(z0 − z1); with `cubic` and the time derivatives
/// `d0`, `d1` (s⁻¹), one inverse cubic Hermite interpolation — t as a function of z through
/// both ends with slopes 1/ż — evaluated at z = 0, when z is monotone over the step (both
/// slopes agree with the secant and the Hermite cubic is monotone: slope ratios ≤ 3), else
/// regula falsi. One formula, no iteration; the C event stepper computes the same.
pub fn locate(z0: f64, z1: f64, d0: f64, d1: f64, h: f64, cubic: bool) -> f64 {
    let u = if z0 != z1 {
        (z0 / (z0 - z1)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    if !cubic {
        return u;
    }
    let dz = z1 - z0;
    let (s0, s1) = (h * d0, h * d1);
    if !(s0 * dz > 0.0 && s1 * dz > 0.0) {
        return u;
    }
    let (m0, m1) = (dz / s0, dz / s1);
    if !(m0 <= 3.0 && m1 <= 3.0) {
        return u;
    }
    let theta = ((u - 2.0) * u + 1.0) * u * m0 + (3.0 - 2.0 * u) * u * u + (u - 1.0) * u * u * m1;
    theta.clamp(0.0, 1.0)
}

/// The frozen relations' values while the model is solved with them again within a round of
/// an instant (a mixed system of relations and the equations that read them). Each solve gives
/// the relations whose live values differ from their slots, and they all take their live
/// values at once. Where that cycles — a relation about to change a second time in the round,
/// as a friction element's `sa > tau0_max` and `sa < -tau0_max` do when the sliding torques
/// each point the other way and only sticking is consistent — every relation that changed is
/// set false (at rest: every element stuck) and the iteration goes on from there (an element
/// that must slide starts to); where it cycles again, the relations that changed are searched:
/// their combinations in turn, one per solve, until one is consistent (its solution keeps
/// every relation's value). Bounded by the rounds of the instant, as every solve is.
struct RelationSearch {
    /// Per event: whether its relation changed in this round (since the restart).
    changed: EntityVec<EventId, bool>,
    phase: Phase,
    /// Restarted: the relations set false; searching: the relations searched.
    movers: Vec<EventId>,
    /// Searching: the next combination (bit i: the value of `movers[i]`).
    next: u64,
    /// Per event: its group of relations ([`Plan::relation_groups`]).
    groups: EntityVec<EventId, EventId>,
    /// The `(event, live value)` pairs that differ after the last solve (kept: an instant
    /// allocates nothing once warm).
    changes: Vec<(EventId, bool)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Every relation takes its live value.
    Plain,
    /// It cycled once: the relations that had changed were set false.
    Restarted,
    /// It cycled again: combinations in turn.
    Search,
    /// No combination of those held: the combinations of their groups in turn.
    Wide,
}

impl RelationSearch {
    fn new(groups: EntityVec<EventId, EventId>) -> RelationSearch {
        RelationSearch {
            changed: vec![false; groups.len()].into(),
            phase: Phase::Plain,
            movers: Vec::new(),
            next: 0,
            changes: Vec::new(),
            groups,
        }
    }

    /// The relations settled (or a new instant): forget the round's changes.
    fn clear(&mut self) {
        self.changed.fill(false);
        self.phase = Phase::Plain;
        self.movers.clear();
    }

    /// Sets the slots for the next solve, from [`Self::changes`].
    fn resolve(&mut self, slot: impl Fn(EventId) -> usize, mem: &mut [f64]) {
        let set = |mem: &mut [f64], k: EventId, v: bool| mem[slot(k)] = if v { 1.0 } else { 0.0 };
        let cycled = self.changes.iter().any(|&(k, _)| self.changed[k]);
        if cycled && self.phase == Phase::Plain {
            // The first cycle: from rest (every relation that changed false), the iteration
            // goes on (one element sticks, another starts to slide).
            self.movers.clear();
            self.movers.extend(
                self.changed
                    .iter_enumerated()
                    .filter(|(_, &c)| c)
                    .map(|(k, _)| k),
            );
            for &k in &self.movers {
                self.changed[k] = false;
                set(mem, k, false);
            }
            for &(k, live) in &self.changes {
                if !self.movers.contains(&k) {
                    set(mem, k, live);
                    self.changed[k] = true;
                }
            }
            self.phase = Phase::Restarted;
            return;
        }
        if cycled && self.phase == Phase::Restarted {
            // It cycled again: the combinations of every relation that changed, all false
            // (tried) excepted.
            for (k, &c) in self.changed.iter_enumerated() {
                if c && !self.movers.contains(&k) {
                    self.movers.push(k);
                }
            }
            self.movers.sort_unstable();
            self.phase = Phase::Search;
            self.next = 1;
        }
        let searching = |r: &Self| matches!(r.phase, Phase::Search | Phase::Wide);
        let exhausted = |r: &Self| r.movers.len() >= 64 || r.next >= 1u64 << r.movers.len();
        if self.phase == Phase::Search && exhausted(self) {
            // No combination of the relations that changed holds: those of their groups too
            // (a relation that never changed may be the one to change: a saturation's upper
            // limit left at a fold goes to its lower limit).
            let before = self.movers.len();
            for (k, &g) in self.groups.iter_enumerated() {
                if !self.movers.contains(&k)
                    && self.movers[..before].iter().any(|&m| self.groups[m] == g)
                {
                    self.movers.push(k);
                }
            }
            self.movers.sort_unstable();
            self.phase = Phase::Wide;
            self.next = 0;
        }
        let n = self.movers.len();
        if searching(self) && n < 64 && self.next < 1u64 << n {
            for &(k, live) in &self.changes {
                if !self.movers.contains(&k) {
                    set(mem, k, live);
                }
            }
            if !cycled && self.changes.iter().all(|(k, _)| !self.movers.contains(k)) {
                // The combination holds; others settle with it.
                return;
            }
            for (i, &k) in self.movers.iter().enumerate() {
                set(mem, k, self.next >> i & 1 == 1);
            }
            self.next += 1;
        } else {
            for &(k, live) in &self.changes {
                set(mem, k, live);
                self.changed[k] = true;
            }
        }
    }
}

/// Events in bounded work (Cellier & Kofman §10.8): after a regular step, an event whose
/// function changed sign — a when-condition on the continuous solution, or a relation frozen
/// between events (specification 8.5: the step equations read its slot, so the solution in a
/// step never switches on its own) — is located by **one** interpolation of its function
/// between the ends of the step, never an iteration; the step is repeated from its start to
/// the event time, the *instant* runs, and a partial step reaches the end of the original step
/// on time. One event per step is located: further ones in the same step are applied at its
/// end, unlocated, and counted as deferred. Time events split the step at their known times.
///
/// An instant is the event iteration of specification 8.6, in rounds of at most
/// [`crate::plan::EVENT_ITERATIONS`]: a round copies `pre(v) := v` for the discrete-valued
/// variables, runs the actions of the events that fire (each when-equation's assignments
/// sorted by dependency; a frozen relation's event changes its slot), and solves the model
/// at the instant (a zero-length step); then the frozen relations whose events did not act
/// take their live values, and the when-conditions that became true fire in the next round.
/// The iteration ends when nothing fires, no relation changed and every discrete variable
/// equals its `pre` value; one still changing after the last round stops the step with
/// status 5. Of the branches of one `when … elsewhen …` that fire in a round only the first
/// acts. A step that ends with a discrete variable changed or a condition became true
/// without an event (a relation of an input, an `integer()` of a state) gets an instant at its
/// end. The result file gets a row just before and just after each instant.
///
/// Chattering (Zeno) rule: an event handled less than [`crate::plan::ZENO_STEPS`] steps after
/// its previous occurrence, and sooner than the time before, is *close* (a periodic event
/// keeps its gap: a PWM comparator every few steps is not chattering); a close event is
/// *chattering* when its previous occurrence was close too and it came back within one step,
/// or when its when-condition became true again in the step that handled it (the event comes
/// faster than the step can resolve; a friction element's stick-slip every few steps, its gaps
/// shrinking and growing at random, is resolved).
/// What follows is [`Zeno`]'s choice.
pub struct Events<'p> {
    plan: &'p Plan,
    snapshot: Vec<f64>,
    pub log: Vec<EventRecord>,
    /// Step-function evaluations in the current step, and the most any step needed.
    calls: u32,
    pub max_calls: u32,
    pub zeno: Zeno,
    /// Per event: the time of its last occurrence, and whether that one was close.
    last: EntityVec<EventId, Option<(f64, bool, f64)>>,
    /// Events no longer located (held), and the held (slot, value) pairs.
    disabled: EntityVec<EventId, bool>,
    held: Vec<(usize, f64)>,
    pub chatter: Option<Chatter>,
    /// Values of the discrete conditions after the last instant.
    cond: EntityVec<EventId, bool>,
    /// The most rounds of the event iteration any instant needed.
    pub max_rounds: usize,
    /// `terminate` ran: (event, time).
    pub terminated: Option<(EventId, f64)>,
    /// A plan without events, `pre` of discrete variables, assertions or warnings: a step is
    /// one call of the step function (the run loop's fast path).
    plain: bool,
    /// Some event is a relation of time alone (its time is evaluated at each step's start).
    has_at: bool,
    /// Spare vectors for event function values.
    pool: Vec<Vec<f64>>,
    /// The time events due at the instant being handled, and those handled in this step
    /// (kept: a step allocates nothing once warm).
    due: Vec<EventId>,
    fired: Vec<EventId>,
    /// The assertions' values (kept: a step allocates nothing).
    asserted: Vec<f64>,
    /// The frozen relations' search at an instant (kept: a step allocates nothing).
    relations: RelationSearch,
    /// Per warning-level assertion (`Plan::warnings`): the time of its first failure and
    /// at how many checks it failed.
    pub warned: Vec<(Option<f64>, u64)>,
    /// When recorded ([`Events::record_rows`]): every output just before and just after each
    /// event instant, at its time, until the run loop takes them.
    pub rows: Option<Vec<(f64, Vec<f64>)>>,
    /// The time tolerance of the current step (times closer than this are the same instant).
    tol: f64,
    /// Per event: a frozen relation that observes the model ([`Plan::relation_observes`]), or
    /// that its function depends on only through the states ([`Plan::relation_integrates`]).
    observes: EntityVec<EventId, bool>,
    integrates: EntityVec<EventId, bool>,
    /// Per event: its rank among conditions that become true together ([`Plan::event_ranks`]).
    ranks: EntityVec<EventId, u32>,
    /// The event of the instant being handled when it came back soon after its previous
    /// occurrence: its relation takes its live value too, unless at its threshold.
    back: Option<EventId>,
    /// Per event: the slots and constant that set its function's scale.
    scales: EntityVec<EventId, (Vec<crate::plan::Slot>, f64)>,
    /// The memory at the refined located time (kept: a step allocates nothing once warm).
    landed: Vec<f64>,
}

/// An event is close only when its gap shrank below this fraction of the one before.
const SHRINKING: f64 = 0.99;

/// State events located in one step at most (each one more partial step and an instant);
/// further ones in the step are applied at its end.
pub const LOCATED_PER_STEP: usize = 4;

/// Secant moves past a located time at which the event's relation has not changed yet, at most
/// (then the end of the part).
const LANDING: usize = 2;

/// Regula falsi (Illinois) moves between the last time on the old side and the located time
/// on the new side of a relation that observes the model, at most.
const REFINE: usize = 3;

/// Located events whose times differ by at most this fraction of the step are simultaneous.
const SIMULTANEOUS: f64 = 1e-6;

/// The latest time the landing of the earliest located event may move to: never past the
/// located time of another event that crossed in the part (`thetas`, the part `(cur, rest)`)
/// and is not handled with it. A relation that crossed by rounding (a speed at rest going from
/// 0 to −6e-19) lands nowhere, and taking it to the end of the part took with it the events
/// located before (a backlash's contact at 3 % of the step).
fn landing_cap(
    thetas: &[(EventId, f64)],
    together: &[EventId],
    (cur, rest): (f64, f64),
    end: f64,
) -> f64 {
    thetas
        .iter()
        .filter(|(j, _)| !together.contains(j))
        .map(|&(_, th)| if th >= 1.0 { end } else { cur + th * rest })
        .fold(end, f64::min)
}

/// The most step-function evaluations one step with `events` may need, with R =
/// [`crate::plan::EVENT_ITERATIONS`] rounds per instant, L located events per part of a step
/// (the located events, at most [`LOCATED_PER_STEP`]) and T time events: 1 without events;
/// otherwise (T + 1) parts, each L(R + 8) + 1 (each located event: the part tried, repeated up
/// to it, up to three times more past it and three to refine it, its instant; then the last
/// try) plus R for
/// an instant at its end when some event is
/// located or `discrete` (discrete conditions or variables that may change without an event),
/// and an instant of R at each time event. What `rtc analyze` prints.
pub fn step_bound<V: crate::symbolic::Var>(
    events: &[crate::system::Event<V>],
    discrete: bool,
) -> u32 {
    let r = crate::plan::EVENT_ITERATIONS as u32;
    let timed = events.iter().filter(|e| e.sample.is_some() || e.at).count() as u32;
    let located = events
        .iter()
        .filter(|e| {
            e.sample.is_none() && !e.initial && !e.terminal && e.discrete.is_none() && !e.at
        })
        .count()
        .min(LOCATED_PER_STEP) as u32;
    if events.is_empty() && !discrete {
        return 1;
    }
    let end = if located > 0 || discrete { r } else { 0 };
    let each = r + 3 + LANDING as u32 + REFINE as u32;
    (timed + 1) * (located * each + 1 + end) + timed * r
}

/// The event values of one evaluation ([`Stepper::event_values`]), in the engines' buffer of
/// three times the events: each event's zero-crossing function (or discrete condition as 0/1),
/// then the time derivatives of those located by a cubic, then the live values (0/1) of the
/// events' relations.
struct Values {
    buf: Vec<f64>,
    n: usize,
}

impl Values {
    /// No values (a step that needs none reads none).
    fn none() -> Values {
        Values {
            buf: Vec::new(),
            n: 0,
        }
    }

    /// Event `k`'s zero-crossing function (or its discrete condition, 0/1).
    fn z(&self, k: EventId) -> f64 {
        self.buf[k.index()]
    }

    fn set_z(&mut self, k: EventId, z: f64) {
        self.buf[k.index()] = z;
    }

    /// The time derivative of event `k`'s function (events located by a cubic).
    fn slope(&self, k: EventId) -> f64 {
        self.buf[self.n + k.index()]
    }

    /// The live value of event `k`'s relation.
    fn live(&self, k: EventId) -> bool {
        self.buf[2 * self.n + k.index()] != 0.0
    }
}

/// Event rows kept between two takes at most (a run that records more drops the rest: the
/// frame rows go on).
const MAX_EVENT_ROWS: usize = 1 << 20;

impl<'p> Events<'p> {
    pub fn new(plan: &'p Plan) -> Events<'p> {
        Events {
            plan,
            snapshot: Vec::new(),
            log: Vec::new(),
            calls: 0,
            max_calls: 0,
            zeno: Zeno::Stop,
            last: vec![None; plan.events.len()].into(),
            disabled: vec![false; plan.events.len()].into(),
            held: Vec::new(),
            chatter: None,
            cond: vec![false; plan.events.len()].into(),
            max_rounds: 0,
            terminated: None,
            plain: plan.events.is_empty()
                && plan.discrete_pre.is_empty()
                && plan.assertions.is_empty()
                && plan.warnings.is_empty(),
            has_at: plan.events.iter().any(|e| e.at),
            relations: RelationSearch::new(plan.relation_groups()),
            pool: Vec::new(),
            due: Vec::new(),
            fired: Vec::new(),
            asserted: Vec::new(),
            warned: vec![(None, 0); plan.warnings.len()],
            rows: None,
            tol: 0.0,
            observes: plan.relation_observes(),
            integrates: plan.relation_integrates(),
            ranks: plan.event_ranks(),
            back: None,
            scales: plan.relation_scales(),
            landed: Vec::new(),
        }
    }

    /// Record every output just before and just after each event instant (for result files:
    /// a jump shows as two rows at its time).
    pub fn record_rows(&mut self) {
        self.rows = Some(Vec::new());
    }

    /// The outputs at `t` as an event row, when rows are recorded.
    fn row(&mut self, it: &mut dyn Stepper, mem: &[f64], t: f64) {
        if let Some(rows) = self.rows.as_mut() {
            if rows.len() < MAX_EVENT_ROWS {
                let mut out = vec![0.0; self.plan.outputs.len()];
                it.outputs(self.plan, mem, &mut out);
                rows.push((t, out));
            }
        }
    }

    /// The zero-crossing functions (0 for events that have none; discrete conditions as 0/1),
    /// then their time derivatives where the location is cubic, then the live values of the
    /// events' relations (0/1).
    fn values(&mut self, it: &mut dyn Stepper, mem: &[f64]) -> Values {
        // Buffers are reused: a step without an event allocates nothing.
        let n = self.plan.events.len();
        let mut buf = self.pool.pop().unwrap_or_default();
        buf.clear();
        buf.resize(3 * n, 0.0);
        it.event_values(self.plan, mem, &mut buf);
        Values { buf, n }
    }

    fn recycle(&mut self, z: Values) {
        self.pool.push(z.buf);
    }

    /// Spare value vectors kept for reuse (bounded: steps do not allocate once warm).
    pub fn spare_buffers(&self) -> usize {
        self.pool.len()
    }

    /// Whether event `k` is located from its zero-crossing function.
    fn located(&self, k: EventId) -> bool {
        let e = &self.plan.events[k];
        !self.disabled[k]
            && e.sample.is_none()
            && !e.initial
            && !e.terminal
            && e.discrete.is_none()
            && !e.at
    }

    /// The slot of the relation event `k` keeps frozen, if it is one.
    fn frozen(&self, k: EventId) -> Option<usize> {
        self.plan.events[k]
            .relation
            .and_then(|r| r.slot)
            .map(|s| s.index())
    }

    /// Whether event `k` happened between the values `z0` and `z1` of the event functions
    /// (`mem`: the memory at the end, where a frozen relation's slot still has its old value):
    /// a frozen relation whose live value differs from its slot, or a when-condition that
    /// became true.
    fn crossed(&self, k: EventId, z0: &Values, z1: &Values, mem: &[f64]) -> bool {
        if !self.located(k) {
            return false;
        }
        match self.frozen(k) {
            Some(slot) => z1.live(k) != (mem[slot] != 0.0),
            None if self.plan.events[k].both => (z0.z(k) > 0.0) != (z1.z(k) > 0.0),
            None => !self.active(k, z0.z(k)) && self.active(k, z1.z(k)),
        }
    }

    /// The events that happened between `z0` and `z1`: a frozen relation within rounding of
    /// its threshold at the end of the step has not changed (its sign there is rounding's);
    /// it changes once clearly past.
    fn crossed_in_step(&self, z0: &Values, z1: &Values, mem: &[f64]) -> Vec<EventId> {
        self.plan
            .events
            .keys()
            .filter(|&k| {
                self.crossed(k, z0, z1, mem)
                    && (self.frozen(k).is_none() || !self.at_threshold(k, z1.z(k), mem))
            })
            .collect()
    }

    /// Whether the function `z` of frozen relation `k` is within rounding of its threshold
    /// ([`crate::plan::THRESHOLD_RTOL`] of its operands' magnitudes): there the relation
    /// keeps its value (a charger's `v >= Vend` while `v = Vend` holds).
    fn at_threshold(&self, k: EventId, z: f64, mem: &[f64]) -> bool {
        let (slots, konst) = &self.scales[k];
        let scale = slots
            .iter()
            .fold(*konst, |m, s| m.max(mem[s.index()].abs()));
        z.abs() <= crate::plan::THRESHOLD_RTOL * scale
    }

    fn active(&self, k: EventId, z: f64) -> bool {
        if !self.located(k) {
            return false;
        }
        let e = &self.plan.events[k];
        match (e.below, e.closed) {
            (true, _) => z <= 0.0,
            (false, true) => z >= 0.0,
            (false, false) => z > 0.0,
        }
    }

    /// The actions of event `k`: the assignments in their sorted order, then the
    /// re-initialisations.
    fn apply(&mut self, it: &mut dyn Stepper, k: EventId, mem: &mut [f64], te: f64) {
        it.event_action(self.plan, mem, k);
        if self.plan.events[k].terminate.is_some() && self.terminated.is_none() {
            self.terminated = Some((k, te));
        }
    }

    /// The when-conditions' values in `z` (from [`Self::values`]): the discrete conditions,
    /// and the relations of time scheduled as time events.
    fn conditions(&self, z: &Values) -> EntityVec<EventId, bool> {
        self.plan
            .events
            .iter_enumerated()
            .map(|(k, e)| match (e.discrete, e.relation) {
                (Some(_), _) => z.z(k) != 0.0,
                (None, Some(r)) if r.slot.is_none() => z.live(k),
                _ => false,
            })
            .collect()
    }

    /// The first discrete-valued variable whose `pre` value differs from it (bitwise): the
    /// event iteration has not settled.
    fn unsettled(&self, mem: &[f64]) -> Option<usize> {
        self.plan
            .discrete_pre
            .iter()
            .position(|&(p, v)| mem[p.index()].to_bits() != mem[v.index()].to_bits())
    }

    /// The conditions in `now` that are true and were not at the last instant.
    fn edges(&self, now: &EntityVec<EventId, bool>) -> Vec<EventId> {
        now.keys().filter(|&j| now[j] && !self.cond[j]).collect()
    }

    /// [`Self::edges`] at the end of a step, without the relations of time: their time
    /// events act at their times.
    fn step_edges(&self, now: &EntityVec<EventId, bool>) -> Vec<EventId> {
        now.keys()
            .filter(|&j| now[j] && !self.cond[j] && !self.plan.events[j].at)
            .collect()
    }

    /// An event instant at `te`, the event iteration of specification 8.6: rounds of
    /// `pre(v) := v`, the actions of the events that fire (those in `first`, logged with
    /// `outcome`, then those whose conditions became true), and the model solved at `te`
    /// (a zero-length step), until nothing fires, no frozen relation changes its value and
    /// every discrete variable equals its `pre` value.
    fn instant(
        &mut self,
        it: &mut dyn Stepper,
        first: &[EventId],
        mem: &mut [f64],
        te: f64,
        outcome: Outcome,
    ) -> Status {
        let p = self.plan;
        self.row(it, mem, te);
        let mut z_before = self.values(it, mem);
        // The switch that came back, where it has crossed at the located time (its live
        // value is already the new one): its new branch is checked against the model. One
        // whose location landed short (a state not yet across) keeps the event's value.
        let back = self.back.filter(|&k| {
            self.frozen(k)
                .is_some_and(|slot| z_before.live(k) != (mem[slot] != 0.0))
        });
        let mut acted: Vec<EventId> = first.to_vec();
        let mut fire: Vec<EventId> = first.to_vec();
        // Events due together act in rank order: one whose actions read what another's
        // assign acts after it ([`Plan::event_ranks`]).
        fire.sort_by_key(|&k| self.ranks[k]);
        let mut round = 0;
        // A round starts with pre(v) := v; within it the model is solved again with the frozen
        // relations that moved and the when-clauses whose conditions its solution made true
        // (with the same pre values: relations and when-equations hold together with the
        // others); the next round starts when nothing moves and a discrete variable changed.
        let mut new_round = true;
        self.relations.clear();
        loop {
            if round == crate::plan::EVENT_ITERATIONS {
                self.recycle(z_before);
                let still = match (fire.first(), self.unsettled(mem)) {
                    (Some(&k), _) => Unsettled::Event(k),
                    (None, Some(d)) => Unsettled::Variable(d),
                    // Only relations still moving: named as the first event (or the first
                    // discrete variable).
                    (None, None) => p
                        .events
                        .keys()
                        .next()
                        .map_or(Unsettled::Variable(0), Unsettled::Event),
                };
                return Status::EventIteration { still };
            }
            if new_round {
                it.event_pre(p, mem);
            }
            // In order; of the branches of one when/elsewhen chain only the first acts.
            for &k in &fire {
                let (chain, branch) = p.events[k].chain;
                let outranked = chain != usize::MAX
                    && fire.iter().any(|&o| {
                        o != k && p.events[o].chain.0 == chain && p.events[o].chain.1 < branch
                    });
                if outranked {
                    continue;
                }
                self.apply(it, k, mem, te);
                self.log.push(EventRecord {
                    time: te,
                    index: k,
                    condition: p.events[k].text.clone(),
                    outcome: if round == 0 {
                        outcome
                    } else {
                        Outcome::Handled
                    },
                });
            }
            let st = self.call(it, mem, te, 0.0);
            if st != Status::Ok {
                self.recycle(z_before);
                return st;
            }
            round += 1;
            let z = self.values(it, mem);
            // Frozen relations take their live values: those whose events did not act, and
            // those that acted but that the actions moved away from their threshold (a
            // transition's `time >= t_start + waitTime` once `t_start := time`). Relations
            // hold at an instant with the rest (specification 8.5): one that moved is solved
            // with again in the same round.
            self.relations.changes.clear();
            for k in p.events.keys() {
                let Some(slot) = self.frozen(k) else { continue };
                let e = &p.events[k];
                // A relation whose event acted has its new value at the instant (the located
                // time is past the crossing), and takes its live value again if the actions
                // move it back (a timer reset: `timer.y >= 1` from 1 back to 0) — a relation
                // that observes the model; a switch's function changes its meaning with the
                // switch (an ideal diode's s, a voltage off and a current on, about zero at
                // the instant), and keeps the value the event gave it.
                let resync = !acted.contains(&k)
                    || (e.at && (z.z(k) - te).abs() > self.tol)
                    || (e.both && self.observes[k])
                    || (back == Some(k) && !self.at_threshold(k, z.z(k), mem));
                let live = z.live(k);
                if resync && live != (mem[slot] != 0.0) {
                    self.relations.changes.push((k, live));
                }
            }
            if !self.relations.changes.is_empty() {
                let events = &p.events;
                self.relations.resolve(
                    |k| {
                        events[k]
                            .relation
                            .and_then(|r| r.slot)
                            .map_or(0, |s| s.index())
                    },
                    mem,
                );
                self.recycle(z);
                fire.clear();
                new_round = false;
                continue;
            }
            self.relations.clear();
            let now = self.conditions(&z);
            // The conditions of the events that just acted count as true from before: they
            // fire again only after going false.
            for &k in &fire {
                self.cond[k] = true;
            }
            fire = self.edges(&now);
            // Located when-conditions the actions moved across their threshold.
            for j in p.events.keys() {
                if self.frozen(j).is_none()
                    && !p.events[j].both
                    && !acted.contains(&j)
                    && !fire.contains(&j)
                    && !self.active(j, z_before.z(j))
                    && self.active(j, z.z(j))
                {
                    fire.push(j);
                }
            }
            // Of those, the lowest rank acts now; the others are checked again after the
            // model is solved with its actions ([`Plan::event_ranks`]).
            if let Some(low) = fire.iter().map(|&j| self.ranks[j]).min() {
                fire.retain(|&j| self.ranks[j] == low);
            }
            let mut now = now;
            for (j, c) in now.iter_mut_enumerated() {
                if *c && !self.cond[j] && !fire.contains(&j) {
                    *c = false;
                }
            }
            self.cond = now;
            let old = std::mem::replace(&mut z_before, z);
            self.recycle(old);
            if !fire.is_empty() {
                acted.extend_from_slice(&fire);
                new_round = false;
                continue;
            }
            if self.unsettled(mem).is_none() {
                break;
            }
            new_round = true;
        }
        self.recycle(z_before);
        self.max_rounds = self.max_rounds.max(round);
        self.row(it, mem, te);
        Status::Ok
    }

    /// After initialisation: the frozen relations take their values at the start, the
    /// when-conditions theirs; then the instant at the start time runs the `initial()` events,
    /// the samples due then and the relations of time whose time has come, and settles the
    /// discrete variables (`pre(v)` is the start value before it).
    pub fn initial(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t0: f64) -> Status {
        let p = self.plan;
        let z = self.values(it, mem);
        for k in p.events.keys() {
            if let Some(slot) = self.frozen(k) {
                mem[slot] = if z.live(k) { 1.0 } else { 0.0 };
            }
        }
        self.recycle(z);
        let z = self.values(it, mem);
        self.cond = self.conditions(&z);
        // Time events of relations whose time has come (T <= t0) set their after-value.
        let first: Vec<EventId> = p
            .events
            .keys()
            .filter(|&k| {
                let e = &p.events[k];
                e.initial || (e.at && self.frozen(k).is_some() && z.z(k) <= t0)
            })
            .collect();
        // A sample whose first tick is the start time is false during initialisation and
        // ticks at the event right after it (`when initial() then … elsewhen sample(0, T)`
        // runs both branches at the start, the second after the first).
        let ticks: Vec<EventId> = p
            .events
            .keys()
            .filter(|&k| {
                p.events[k]
                    .sample
                    .is_some_and(|(start, interval)| (start - t0).abs() <= 1e-9 * interval)
            })
            .collect();
        self.recycle(z);
        if first.is_empty() && ticks.is_empty() && self.plan.discrete_pre.is_empty() {
            return self.check(it, mem, true, t0);
        }
        // The run's first row is the state after these instants: no event rows for them.
        let rows = self.rows.take();
        let mut st = self.instant(it, &first, mem, t0, Outcome::Handled);
        if st == Status::Ok && self.terminated.is_none() && !ticks.is_empty() {
            st = self.instant(it, &ticks, mem, t0, Outcome::Handled);
        }
        self.rows = rows;
        if st != Status::Ok {
            return st;
        }
        match self.terminated {
            Some((event, _)) => Status::Terminated { event },
            None => self.check(it, mem, true, t0),
        }
    }
    /// `terminal()` (specification 3.7.4.2): after a run that reached its stop time, the
    /// branches on `terminal()` act once at `t`, the run's last instant (an event iteration
    /// as any other; its effects, such as writing a file, are made then).
    pub fn terminal(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64) -> Status {
        let p = self.plan;
        let last: Vec<EventId> = p.events.keys().filter(|&k| p.events[k].terminal).collect();
        if last.is_empty() {
            return Status::Ok;
        }
        let rows = self.rows.take();
        let st = self.instant(it, &last, mem, t, Outcome::Handled);
        self.rows = rows;
        match st {
            Status::Ok => self.check(it, mem, false, t),
            st => st,
        }
    }

    /// The assertions on the values at `t` after a step (`initial`: after initialisation,
    /// those of `when initial()` first), evaluated by the engine: compiled code costs what the
    /// conditions cost. Warning-level assertions that fail are counted (the first failure's
    /// time kept) and do not stop the run.
    fn check(&mut self, it: &mut dyn Stepper, mem: &[f64], initial: bool, t: f64) -> Status {
        let p = self.plan;
        let (n, m) = (p.assertions.len(), p.initial_assertions.len());
        if n == 0 && p.warnings.is_empty() && !initial {
            return Status::Ok;
        }
        let mut a = std::mem::take(&mut self.asserted);
        a.resize(n + m + p.warnings.len(), 1.0);
        it.assertion_values(p, mem, &mut a);
        let failed = if initial {
            (n..n + m).chain(0..n).find(|&k| a[k] == 0.0)
        } else {
            (0..n).find(|&k| a[k] == 0.0)
        };
        for (w, &v) in self.warned.iter_mut().zip(&a[n + m..]) {
            if v == 0.0 {
                w.0.get_or_insert(t);
                w.1 += 1;
            }
        }
        self.asserted = a;
        failed.map_or(Status::Ok, |index| Status::Assertion { index })
    }

    /// The warning-level assertions that failed: (message, first time, failed checks).
    pub fn warnings(&self) -> impl Iterator<Item = (&str, f64, u64)> + '_ {
        self.warned
            .iter()
            .zip(&self.plan.warnings)
            .filter_map(|(&(t, n), (_, m))| Some((m.as_str(), t?, n)))
    }

    /// When time event `k` is next due after `t` (beyond the tolerance): a sample's next tick,
    /// a relation of time's time (in `z`, the event values at t); `None` for other events.
    fn due_time(&self, z: &Values, k: EventId, t: f64, tol: f64) -> Option<f64> {
        let e = &self.plan.events[k];
        if e.at {
            return (z.z(k) > t + tol).then_some(z.z(k));
        }
        let (start, interval) = e.sample?;
        let mut j = if start > t + tol {
            0.0
        } else {
            ((t - start) / interval).floor() + 1.0
        };
        if start + j * interval <= t + tol {
            j += 1.0;
        }
        Some(start + j * interval)
    }

    /// The earliest time in (t, end] at which time events are due, with every event due then
    /// (within the tolerance: simultaneous samples, three switches closing at one time) in
    /// `self.due`; `z` has the event values at t.
    fn time_events(&mut self, z: &Values, t: f64, end: f64, tol: f64) -> Option<f64> {
        let p = self.plan;
        let first = p
            .events
            .keys()
            .filter_map(|k| self.due_time(z, k, t, tol))
            .filter(|&te| te <= end + tol)
            .min_by(f64::total_cmp)?;
        self.due.clear();
        for k in p.events.keys() {
            if self
                .due_time(z, k, t, tol)
                .is_some_and(|te| (te - first).abs() <= tol)
            {
                self.due.push(k);
            }
        }
        Some(first)
    }

    /// A step is one call of the step function (no events, `pre` of discrete variables,
    /// assertions or warnings).
    pub fn plain(&self) -> bool {
        self.plain
    }

    /// One step from `t` to `t + h` with event handling: a time event due in the step splits
    /// it at the event's known time (no location needed), state events are located inside
    /// each part. A `terminate` that ran in the step is reported at its end (status 6).
    pub fn step(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        if self.plain {
            // Nothing can hold, terminate or assert: the step function alone (one call,
            // counted as the general path counts it).
            self.max_calls = self.max_calls.max(1);
            return it.step(mem, t, h);
        }
        self.calls = 0;
        let mut st = self.step_timed(it, mem, t, h);
        if st == Status::Ok && !self.held.is_empty() {
            // Held states keep their values; a zero-length step makes the rest consistent.
            for &(slot, x) in &self.held {
                mem[slot] = x;
            }
            st = self.call(it, mem, t + h, 0.0);
        }
        self.max_calls = self.max_calls.max(self.calls);
        match (st, self.terminated) {
            (Status::Ok, Some((event, _))) => Status::Terminated { event },
            (Status::Ok, None) => self.check(it, mem, false, t + h),
            _ => st,
        }
    }

    /// The most step-function evaluations one step may need ([`step_bound`]), one more while
    /// a chattering event is held.
    pub fn bound(&self) -> u32 {
        let p = self.plan;
        let held =
            u32::from(self.zeno == Zeno::Hold && p.events.iter().any(|e| e.sample.is_none()));
        step_bound(
            &p.events,
            p.events.iter().any(|e| e.discrete.is_some()) || !p.discrete_pre.is_empty(),
        ) + held
    }

    /// One evaluation of the step function, counted.
    fn call(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        self.calls += 1;
        it.step(mem, t, h)
    }

    /// The step with its time events: each instant at which some are due splits it at that
    /// known time (no location needed), all events due then acting together; state events
    /// are located inside each part. A time event due a second time in one step (a sample
    /// faster than the step) chatters: its occurrences cannot be resolved.
    fn step_timed(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        if self.plan.events.is_empty() && self.plan.discrete_pre.is_empty() {
            return self.call(it, mem, t, h);
        }
        let end = t + h;
        let tol = 1e-9 * h.abs().max(f64::MIN_POSITIVE);
        self.tol = tol;
        self.fired.clear();
        let mut cur = t;
        loop {
            // From t the rest is h itself (bitwise what a step without events gets).
            let rest = if cur == t { h } else { end - cur };
            let z = if self.has_at {
                self.values(it, mem)
            } else {
                Values::none()
            };
            let found = self.time_events(&z, cur, end, tol);
            if self.has_at {
                self.recycle(z);
            }
            let Some(te) = found else {
                return self.step_state(it, mem, cur, rest);
            };
            if let Some(&k) = self.due.iter().find(|k| self.fired.contains(k)) {
                return Status::Chattering { event: k };
            }
            let at_end = (te - end).abs() <= tol;
            let h1 = if at_end { rest } else { te - cur };
            let st = self.step_state(it, mem, cur, h1);
            if st != Status::Ok {
                return st;
            }
            let te = if at_end { end } else { te };
            let mut due = std::mem::take(&mut self.due);
            // The instant at the end of the part (for a discrete variable that changed there)
            // may have acted on a when-condition on time already, or moved its time on (an
            // inertial delay's `t_next`): such a condition has not become true again here.
            if due.iter().any(|&k| self.plan.events[k].at) {
                let z = self.values(it, mem);
                due.retain(|&k| {
                    let e = &self.plan.events[k];
                    !e.at || e.both || (!self.cond[k] && z.z(k) <= te + tol)
                });
                self.recycle(z);
            }
            let st = self.instant(it, &due, mem, te, Outcome::Handled);
            self.fired.extend_from_slice(&due);
            self.due = due;
            if st != Status::Ok || at_end {
                return st;
            }
            cur = te;
        }
    }

    /// A step with state-event handling only: the step is taken; the earliest event in it
    /// is located by one interpolation, the step repeated up to it and the instant run; then
    /// the rest of the step is taken the same way, up to [`LOCATED_PER_STEP`] located events
    /// per step. Events still found after that are applied at the end of the step, unlocated,
    /// and counted as deferred; so are conditions that became true and discrete variables that
    /// changed without an event (an instant at the end).
    fn step_state(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        let end = t + h;
        let p = self.plan;
        let mut cur = t;
        // The event just handled, and its function's value past the crossing: at the located
        // time its function is only approximately zero, and it must not fire again there.
        let mut just: Option<(EventId, f64)> = None;
        let mut located_here: Vec<EventId> = Vec::new();
        loop {
            // From t the rest is h itself (bitwise what a step without events gets).
            let rest = if cur == t { h } else { end - cur };
            let mut z0 = self.values(it, mem);
            if let Some((k, zk)) = just {
                z0.set_z(k, zk);
            }
            self.snapshot.clear();
            self.snapshot.extend_from_slice(mem);
            let st = self.call(it, mem, cur, rest);
            if st != Status::Ok {
                self.recycle(z0);
                return st;
            }
            let z1 = self.values(it, mem);
            let crossed = self.crossed_in_step(&z0, &z1, mem);
            if crossed.is_empty() || located_here.len() == LOCATED_PER_STEP {
                // No event (or no more located in this step): still an instant at the end for
                // the events that crossed, the conditions that became true, and the discrete
                // variables that changed without an event.
                let now = self.conditions(&z1);
                let mut fire = crossed;
                for j in self.step_edges(&now) {
                    if !fire.contains(&j) {
                        fire.push(j);
                    }
                }
                self.recycle(z0);
                self.recycle(z1);
                if fire.is_empty() && self.unsettled(mem).is_none() {
                    return Status::Ok;
                }
                return self.instant(it, &fire, mem, end, Outcome::Deferred);
            }
            // One interpolation per crossed function: regula falsi, or the inverse cubic
            // Hermite for methods of order 3 and more. The earliest is handled.
            let cubic = |k: EventId| p.events[k].dz.is_some();
            let located = |k: EventId| {
                if p.events[k].jump {
                    1.0
                } else {
                    locate(z0.z(k), z1.z(k), z0.slope(k), z1.slope(k), rest, cubic(k))
                }
            };
            let thetas: Vec<(EventId, f64)> = crossed.iter().map(|&k| (k, located(k))).collect();
            let (k, theta) = thetas
                .iter()
                .copied()
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .expect("some event crossed");
            // Events located within a millionth of the step of the earliest happen at its
            // instant together (the diodes of a bridge commutating at a zero of the source).
            let mut together: Vec<EventId> = vec![k];
            together.extend(
                thetas
                    .iter()
                    .filter(|&&(j, th)| j != k && th - theta <= SIMULTANEOUS)
                    .map(|&(j, _)| j),
            );
            let zk = z1.z(k);
            self.recycle(z1);
            // An event at the end of the step ends it there.
            let mut te = if theta >= 1.0 {
                end
            } else {
                cur + theta * rest
            };
            if theta < 1.0 {
                mem.copy_from_slice(&self.snapshot);
                let st = self.call(it, mem, cur, te - cur);
                if st != Status::Ok {
                    self.recycle(z0);
                    return st;
                }
                let mut ze = self.values(it, mem);
                // A relation's event acts where it has changed (specification 8.5: at the
                // instant a relation has its actual value): an interpolation that landed on
                // the old side moves on by the secant to the end of the part (at least a
                // billionth of it for an observer, the next representable time for a relation
                // acting through the states, whose function a billionth later is off by its
                // rate times that: a speed at rest), at most LANDING times, then to the end of
                // the part.
                let mut tries = 0;
                // Of the relations that observe the model or act on it only through its
                // states (a switch's function changes its meaning with the switch, and a
                // when-condition acts on its own edge).
                let observer = self.frozen(k).is_some() && (self.observes[k] || self.integrates[k]);
                // The last time on the old side, and the function there.
                let mut old = (cur, z0.z(k));
                let cap = landing_cap(&thetas, &together, (cur, rest), end);
                while observer && !self.crossed(k, &z0, &ze, mem) && te < cap {
                    old = (te, ze.z(k));
                    let th = if ze.z(k) != zk {
                        (ze.z(k) / (ze.z(k) - zk)).clamp(0.0, 1.0)
                    } else {
                        1.0
                    };
                    let next = te + th * (end - te);
                    let least = if self.observes[k] {
                        te + 1e-9 * rest
                    } else {
                        te.next_up()
                    };
                    te = if tries == LANDING {
                        cap
                    } else {
                        next.max(least).min(cap)
                    };
                    tries += 1;
                    mem.copy_from_slice(&self.snapshot);
                    let st = self.call(it, mem, cur, te - cur);
                    if st != Status::Ok {
                        self.recycle(z0);
                        self.recycle(ze);
                        return st;
                    }
                    self.recycle(ze);
                    ze = self.values(it, mem);
                }
                if observer && self.crossed(k, &z0, &ze, mem) {
                    let (refined, z) = self.refine(it, mem, k, (cur, rest), old, (te, ze), &z0);
                    match refined {
                        Ok(t) => te = t,
                        Err(st) => {
                            self.recycle(z0);
                            self.recycle(z);
                            return st;
                        }
                    }
                    ze = z;
                }
                // Events the partial step already carried past their thresholds (located
                // later: an interpolation on a curved function lands late) act at this instant
                // too, rather than never.
                for &j in &crossed {
                    if !together.contains(&j) && self.crossed(j, &z0, &ze, mem) {
                        together.push(j);
                    }
                }
                self.recycle(ze);
            }
            self.recycle(z0);
            // A switch back within the chattering rule's steps: its relation at this instant
            // takes its live value where the model contradicts it beyond rounding (the branch
            // it goes back to may have no solution there: a saturating amplifier's positive
            // feedback leaves its linear range at a fold for the other limit, not the one it
            // came from).
            self.back = self.last[k]
                .is_some_and(|(tp, _, _)| te - tp < crate::plan::ZENO_STEPS * h)
                .then_some(k);
            let st = self.instant(it, &together, mem, te, Outcome::Handled);
            self.back = None;
            if st != Status::Ok {
                return st;
            }
            // The chattering rule: close to its previous occurrence twice in a row, or a
            // when-condition back in the same step.
            // Close: back within ZENO_STEPS steps, and sooner than the time before (a
            // periodic event, a PWM comparator every five steps, keeps its gap and is not
            // chattering; a bouncing ball's gaps shrink).
            let previous = self.last[k];
            let gap = previous.map_or(f64::INFINITY, |(tp, _, _)| te - tp);
            let before = previous.map_or(f64::INFINITY, |(_, _, g)| g);
            let close = gap < crate::plan::ZENO_STEPS * h && gap < SHRINKING * before;
            self.last[k] = Some((te, close, gap));
            // A when-condition true again in the step that handled it came back faster than
            // the step resolves (a relation flipping back is an event of its own).
            let again = !self.plan.events[k].both && located_here.contains(&k);
            if close && ((previous.is_some_and(|(_, c, _)| c) && gap < h) || again) {
                // The states just after the event: what a chattering event holds.
                self.snapshot.copy_from_slice(mem);
                let st = self.chattering(k, te, gap, mem);
                if st != Status::Ok {
                    return st;
                }
            }
            located_here.push(k);
            if te >= end {
                return Status::Ok;
            }
            cur = te;
            just = Some((k, zk));
        }
    }

    /// The located time of relation `k` refined: regula falsi with the Illinois rule between
    /// `old`, the last time on its old side, and `new`, a time on its new side (`mem` the
    /// memory there), each move a partial step from the part's start `part.0` (its length
    /// `part.1`); at most [`REFINE`] moves, and none once a move would be shorter than a
    /// billionth of the part or the function is within rounding of its threshold. The
    /// instant is at the last time found on the new side, `mem` its memory. An interpolation
    /// on a curved function lands late by an error of the second order in the step, and a
    /// state that stops there (a friction element sticking at a speed of −3e-6 rather than 0)
    /// keeps the error. Returns the time and the event values there.
    #[allow(clippy::too_many_arguments)]
    fn refine(
        &mut self,
        it: &mut dyn Stepper,
        mem: &mut [f64],
        k: EventId,
        part: (f64, f64),
        old: (f64, f64),
        new: (f64, Values),
        z0: &Values,
    ) -> (Result<f64, Status>, Values) {
        let (cur, rest) = part;
        let (mut a, mut za) = old;
        let (mut b, mut ze) = new;
        let mut zb = ze.z(k);
        let mut kept = false;
        // Which end the last move replaced: Illinois halves the other end's value when the
        // same end is replaced twice in a row.
        let mut side = 0i8;
        let mut near = 1.0;
        for _ in 0..REFINE {
            if za == zb || self.at_threshold(k, zb, mem) {
                break;
            }
            let secant = b - zb * (b - a) / (zb - za);
            // The old end within rounding of the threshold where the part started clearly on
            // the old side (a function that goes through: PreLoad's contacts, closing at 4
            // m/s): the secant lands on the old side of the zero and stays there (9e-19 from it
            // after two moves); the move goes at least a billionth of the part past the old
            // end, a thousand times further at each such move. A function that started within
            // rounding of its threshold (a clutch at rest) acts at the end of the part.
            let through = self.at_threshold(k, za, mem) && !self.at_threshold(k, z0.z(k), mem);
            let tn = if through {
                near *= 1e3;
                secant.max(a + near * 1e-12 * rest)
            } else {
                secant
            };
            if !(tn > a && tn < b) || b - tn <= 1e-9 * rest {
                break;
            }
            if !kept {
                self.landed.clear();
                self.landed.extend_from_slice(mem);
                kept = true;
            }
            mem.copy_from_slice(&self.snapshot);
            let st = self.call(it, mem, cur, tn - cur);
            if st != Status::Ok {
                return (Err(st), ze);
            }
            let zn = self.values(it, mem);
            if self.crossed(k, z0, &zn, mem) {
                (b, zb) = (tn, zn.z(k));
                self.landed.copy_from_slice(mem);
                self.recycle(std::mem::replace(&mut ze, zn));
                if side == 1 {
                    za *= 0.5;
                }
                side = 1;
            } else {
                (a, za) = (tn, zn.z(k));
                self.recycle(zn);
                if side == -1 {
                    zb *= 0.5;
                }
                side = -1;
            }
        }
        if kept {
            mem.copy_from_slice(&self.landed);
        }
        (Ok(b), ze)
    }

    /// Event `k`, handled at `te`, chatters: stop, or hold its states at their values just
    /// after the event (in `self.snapshot`) from the end of this step on.
    fn chattering(&mut self, k: EventId, te: f64, gap: f64, mem: &mut [f64]) -> Status {
        let p = self.plan;
        let mut slots: Vec<usize> = p.events[k]
            .reinits
            .iter()
            .map(|&(x, _)| x.index())
            .collect();
        let mut leaves = Vec::new();
        p.arena.leaves(p.events[k].z, &mut leaves);
        for n in leaves {
            if let crate::symbolic::Node::Var(v) = n {
                if p.vars[v].kind == SlotKind::System(SVarKind::State) {
                    slots.push(v.index());
                }
            }
        }
        slots.sort_unstable();
        slots.dedup();
        let last = self
            .log
            .iter_mut()
            .rev()
            .find(|r| r.index == k)
            .expect("the event was logged");
        let mut held = Vec::new();
        match self.zeno {
            Zeno::Stop => last.outcome = Outcome::Stopped,
            Zeno::Hold => {
                last.outcome = Outcome::Held;
                self.disabled[k] = true;
                for &s in &slots {
                    self.held.push((s, self.snapshot[s]));
                    mem[s] = self.snapshot[s];
                    held.push(p.vars[s].name.clone());
                }
            }
        }
        self.chatter = Some(Chatter {
            event: k,
            time: te,
            gap,
            held,
        });
        match self.zeno {
            Zeno::Stop => Status::Chattering { event: k },
            Zeno::Hold => Status::Ok,
        }
    }

    /// What the chattering rule found, in words (for the run's summary).
    pub fn chatter_message(&self) -> Option<String> {
        let c = self.chatter.as_ref()?;
        let e = &self.plan.events[c.event];
        Some(match self.zeno {
            Zeno::Stop => format!(
                "event {} (`{}`) chatters at t = {}: handled again {:e} s after its previous occurrence (chattering rule); the run stops (--zeno hold holds its states instead)",
                c.event, e.text, c.time, c.gap
            ),
            Zeno::Hold => format!(
                "event {} (`{}`) chatters at t = {}: handled again {:e} s after its previous occurrence (chattering rule); held from there to the end of the run: {}",
                c.event,
                e.text,
                c.time,
                c.gap,
                if c.held.is_empty() {
                    "no states (the event is no longer located)".to_string()
                } else {
                    c.held.join(", ")
                }
            ),
        })
    }

    /// What `terminate` said, if it ran: "t = …: event k (`cond`): message".
    pub fn termination(&self) -> Option<String> {
        let (k, te) = self.terminated?;
        let e = &self.plan.events[k];
        Some(format!(
            "terminated at t = {te} by event {k} (`{}`): {}",
            e.text,
            e.terminate.as_deref().unwrap_or("")
        ))
    }

    /// The event log as CSV: `time,event,condition,handled`.
    pub fn csv(&self) -> String {
        let mut s = String::from("time,event,condition,handled\n");
        for r in &self.log {
            rtc_runtime::io::push_f64(&mut s, r.time);
            s.push_str(&format!(
                ",{},\"{}\",{}\n",
                r.index,
                r.condition.replace('"', "\"\""),
                r.outcome.name()
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A saturation's relations at the fold of a positive-feedback loop: event 0 `v > Vs`
    /// (the upper limit) and event 1 `v < -Vs` (the lower), the live values of each branch
    /// just past the fold. Upper (and both, the if-chain's first): neither relation holds;
    /// the linear range: `v > Vs` holds; lower: `v < -Vs` holds, the only consistent branch.
    fn live(mem: &[f64]) -> [bool; 2] {
        match (mem[0] != 0.0, mem[1] != 0.0) {
            (true, _) => [false, false],
            (false, false) => [true, false],
            (false, true) => [false, true],
        }
    }

    /// The solves an instant needs from the upper limit (its event acted), or None when 20
    /// do not settle it.
    fn settle(groups: &[usize]) -> Option<(usize, [f64; 2])> {
        let groups = groups.iter().map(|&g| EventId::new(g)).collect();
        let mut search = RelationSearch::new(groups);
        let mut mem = [1.0, 0.0];
        for solves in 1..=crate::plan::EVENT_ITERATIONS {
            let now = live(&mem);
            search.changes.clear();
            for (k, &l) in now.iter().enumerate() {
                if l != (mem[k] != 0.0) {
                    search.changes.push((EventId::new(k), l));
                }
            }
            if search.changes.is_empty() {
                return Some((solves, mem));
            }
            search.resolve(|k| k.index(), &mut mem);
        }
        None
    }

    #[test]
    fn the_search_widens_to_the_group() {
        // One group (one if-expression): the lower limit is found.
        let (solves, mem) = settle(&[0, 0]).expect("settles");
        assert_eq!(mem, [0.0, 1.0]);
        assert!(solves <= 8, "{solves}");
        // Two groups: only the relation that changed is searched, and it never settles.
        assert_eq!(settle(&[0, 1]), None);
    }
}
