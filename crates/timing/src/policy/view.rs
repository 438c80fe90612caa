//! The read-only state issue and fetch policies see: per warp slot and per CTA slot
//! struct-of-arrays owned by the SM and updated by the pipeline on events (never rebuilt per
//! cycle), plus the current cycle.

use crate::classify::Unit;
use crate::ids::WarpSlot;
use warpsim_core::exec::warp::WarpState;

/// Why a resident warp cannot be a candidate for issue before its `wake` cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Block {
    /// Not blocked: from `wake` on its I-buffer head may issue (if its unit is free).
    Ready,
    /// Its I-buffer head waits on the scoreboard until `wake`.
    Data,
    /// Waiting for its own atomics to complete (`sm.atomics_block_warp`, GPGPU-Sim's
    /// `m_n_atomic`): not a candidate, like a warp at a barrier, until `wake`.
    Atomic,
    /// Waiting at a barrier (until released).
    Barrier,
    /// Finished; waiting for other warps of its CTA to finish.
    Exit,
    /// Finished, as is every warp of its CTA; waiting for the CTA's memory instructions
    /// (stores until L2 acknowledges them) before the CTA retires.
    Drain,
    /// I-buffer empty after a control hazard flushed it (until fetch refills it).
    Control,
    /// I-buffer empty otherwise (until fetch fills it).
    Fetch,
}

/// Per warp slot state (index = the SM's warp slot; slot `w` belongs to scheduler `w mod S`
/// and to CTA slot `w / warps_per_cta`).
///
/// Invariant: the flags the derived bit sets and `version` depend on (`occupied`, `state`,
/// `waiting`, `ib_n`) are private, written only through their setters, so the bit sets are
/// always up to date; policies read them through the accessors of the same names.
#[derive(Clone, Debug)]
pub struct WarpSlots {
    /// The slot holds a warp of a resident CTA (written through [`WarpSlots::set_occupied`]).
    occupied: Vec<bool>,
    /// Dynamic id (launch order): smaller is older.
    pub age: Vec<u64>,
    /// The functional warp's state (refreshed at issue and on barrier release / exit; written
    /// through [`WarpSlots::set_state`]).
    state: Vec<WarpState>,
    /// At a barrier or finished (waiting for its CTA to exit; written through
    /// [`WarpSlots::set_waiting`]).
    waiting: Vec<bool>,
    /// Valid decoded entries in the I-buffer (written through [`WarpSlots::set_ib_n`]).
    ib_n: Vec<u8>,
    /// Unit class of the I-buffer head (meaningful while `ib_n > 0`); `Unit::Ldst` = a
    /// memory instruction (MOTRR's memory class).
    pub head_unit: Vec<Unit>,
    /// Warp instructions issued.
    pub insts: Vec<u64>,
    /// Thread instructions issued (instructions × active lanes: PRO's progress).
    pub thread_insts: Vec<u64>,
    /// Blocking reason for cycles before `wake` (see [`Block`]).
    pub block: Vec<Block>,
    /// First cycle the warp may be a candidate (`u64::MAX`: until an event).
    pub wake: Vec<u64>,
    /// While the warp's data block includes an outstanding global/local load (two-level
    /// demotes on it): the block's `wake`; 0 otherwise (reset by every new blocking interval).
    pub long_until: Vec<u64>,
    /// An I-cache miss for the warp's next fetch is outstanding until this cycle (the warp is
    /// not eligible for fetch before it).
    pub fetch_wait: Vec<u64>,
    /// Moves whenever a slot's `occupied` or `waiting` flag or the age orders change: a
    /// policy whose order derives only from those (and its own state) keeps the order while
    /// this stands, instead of re-deriving it every cycle.
    version: u64,
    /// I-buffer depth (`sm.ibuffer_entries`), for [`WarpSlots::fetch_room`].
    ib_depth: u8,
    /// Instructions one fetch brings (`sm.fetch_bytes / 8`, at most `ib_depth`), for
    /// [`WarpSlots::fetch_block`].
    fetch_block_size: u8,
    /// Bit sets over the slots (`sm.max_warps ≤ 64`), derived from the fields above so that
    /// policies test a bit instead of several arrays. Kept by the setters (each refreshes the
    /// bits its field feeds) and by the SM after each change of an I-buffer head
    /// (`Sm::block`, which follows every one, calls [`WarpSlots::refresh_memory_head`]);
    /// [`WarpSlots::refresh`] redoes all of a slot's. Bit `s` of `memory_heads`: the slot's
    /// next instruction goes to the load/store unit and it is not waiting (`ib_n > 0 &&
    /// head_unit == Ldst && !waiting`: MOTRR's memory class). Meaningful for occupied slots.
    memory_heads: u64,
    /// Bit `s`: `waiting[s]`.
    waiting_bits: u64,
    /// Bit `s`: `occupied[s]`.
    occupied_bits: u64,
    /// Bit `s`: occupied, not finished, a free I-buffer entry (fetch's `partial` rule, less the
    /// I-cache wait).
    fetch_room: u64,
    /// Bit `s`: occupied, not finished, free entries for a whole fetch block (fetch's `block`
    /// rule, less the I-cache wait).
    fetch_block: u64,
    /// Bit `s`: occupied, not finished, an empty I-buffer (fetch's baseline rule, less the
    /// I-cache wait).
    fetch_empty: u64,
}

impl WarpSlots {
    /// `n` empty slots, I-buffers `ib_depth` deep, fetches of `fetch_block_size` instructions.
    pub fn new(n: usize, ib_depth: u8, fetch_block_size: u8) -> WarpSlots {
        WarpSlots {
            occupied: vec![false; n],
            age: vec![0; n],
            state: vec![WarpState::Done; n],
            waiting: vec![false; n],
            ib_n: vec![0; n],
            head_unit: vec![Unit::Sp; n],
            insts: vec![0; n],
            thread_insts: vec![0; n],
            block: vec![Block::Fetch; n],
            wake: vec![u64::MAX; n],
            long_until: vec![0; n],
            fetch_wait: vec![0; n],
            version: 0,
            ib_depth,
            fetch_block_size: fetch_block_size.clamp(1, ib_depth.max(1)),
            memory_heads: 0,
            waiting_bits: 0,
            occupied_bits: 0,
            fetch_room: 0,
            fetch_block: 0,
            fetch_empty: 0,
        }
    }

    /// The slot holds a warp of a resident CTA.
    #[inline]
    pub fn occupied(&self) -> &[bool] {
        &self.occupied
    }

    /// The functional warp's state.
    #[inline]
    pub fn state(&self) -> &[WarpState] {
        &self.state
    }

    /// At a barrier or finished.
    #[inline]
    pub fn waiting(&self) -> &[bool] {
        &self.waiting
    }

    /// Valid decoded entries in each I-buffer.
    #[inline]
    pub fn ib_n(&self) -> &[u8] {
        &self.ib_n
    }

    /// Moves whenever a slot's `occupied` or `waiting` flag or the age orders change.
    #[inline]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// I-buffer depth.
    #[inline]
    pub fn ib_depth(&self) -> u8 {
        self.ib_depth
    }

    /// Instructions one fetch brings.
    #[inline]
    pub fn fetch_block_size(&self) -> u8 {
        self.fetch_block_size
    }

    /// Bit `s`: the slot's next instruction is a memory one and it is not waiting.
    #[inline]
    pub fn memory_heads(&self) -> u64 {
        self.memory_heads
    }

    /// Bit `s`: `waiting()[s]`.
    #[inline]
    pub fn waiting_bits(&self) -> u64 {
        self.waiting_bits
    }

    /// Bit `s`: the slot holds a warp of a resident CTA.
    #[inline]
    pub fn occupied_bits(&self) -> u64 {
        self.occupied_bits
    }

    /// Bit `s`: fetch's `partial` rule holds (less the I-cache wait).
    #[inline]
    pub fn fetch_room(&self) -> u64 {
        self.fetch_room
    }

    /// Bit `s`: fetch's `block` rule holds (less the I-cache wait).
    #[inline]
    pub fn fetch_block(&self) -> u64 {
        self.fetch_block
    }

    /// Bit `s`: fetch's `empty` rule holds (less the I-cache wait).
    #[inline]
    pub fn fetch_empty(&self) -> u64 {
        self.fetch_empty
    }

    pub fn set_occupied(&mut self, s: WarpSlot, on: bool) {
        self.occupied[s] = on;
        self.version += 1;
        self.refresh(s);
    }

    pub fn set_waiting(&mut self, s: WarpSlot, on: bool) {
        self.waiting[s] = on;
        self.version += 1;
        self.refresh(s);
    }

    // `set_ib_n` and `set_state` run several times per issued instruction: each refreshes
    // only the bits its field feeds.
    #[inline]
    pub fn set_ib_n(&mut self, s: WarpSlot, n: u8) {
        self.ib_n[s] = n;
        self.refresh_fetch(s);
        self.refresh_memory_head(s);
    }

    #[inline]
    pub fn set_state(&mut self, s: WarpSlot, state: WarpState) {
        let was_done = self.state[s] == WarpState::Done;
        self.state[s] = state;
        if was_done != (state == WarpState::Done) {
            self.refresh_fetch(s);
        }
    }

    /// Slot `s`'s memory class, from its I-buffer head and waiting flag.
    #[inline]
    pub fn memory_head(&self, s: usize) -> bool {
        self.ib_n[s] > 0 && self.head_unit[s] == Unit::Ldst && !self.waiting[s]
    }

    /// Brings bit `s` of every derived bit set up to date.
    pub fn refresh(&mut self, s: WarpSlot) {
        self.waiting_bits = with_bit(self.waiting_bits, s, self.waiting[s]);
        self.occupied_bits = with_bit(self.occupied_bits, s, self.occupied[s]);
        self.refresh_memory_head(s);
        self.refresh_fetch(s);
    }

    /// Bit `s` of [`WarpSlots::memory_heads`] (the SM calls this after an I-buffer head
    /// changed).
    #[inline]
    pub fn refresh_memory_head(&mut self, s: WarpSlot) {
        self.memory_heads = with_bit(self.memory_heads, s, self.memory_head(s.index()));
    }

    /// Bit `s` of the fetch bit sets.
    #[inline]
    fn refresh_fetch(&mut self, s: WarpSlot) {
        let live = self.occupied[s] && self.state[s] != WarpState::Done;
        let n = self.ib_n[s];
        self.fetch_room = with_bit(self.fetch_room, s, live && n < self.ib_depth);
        self.fetch_block = with_bit(
            self.fetch_block,
            s,
            live && n as u16 + self.fetch_block_size as u16 <= self.ib_depth as u16,
        );
        self.fetch_empty = with_bit(self.fetch_empty, s, live && n == 0);
    }

    /// Something `version` covers changed another way (the age orders were rebuilt).
    pub fn touch(&mut self) {
        self.version += 1;
    }

    pub fn len(&self) -> usize {
        self.occupied.len()
    }

    pub fn is_empty(&self) -> bool {
        self.occupied.is_empty()
    }
}

/// `set` with bit `s` equal to `on` (slots past 64, only in hand-built views, have no bit).
#[inline]
fn with_bit(set: u64, s: WarpSlot, on: bool) -> u64 {
    let s = s.index();
    if s >= super::MAX_WARP_SLOTS {
        return set;
    }
    (set & !(1 << s)) | (on as u64) << s
}

/// Per CTA slot state (index = the SM's CTA slot).
#[derive(Clone, Debug)]
pub struct CtaSlots {
    pub resident: Vec<bool>,
    /// Linear grid index (CTA age: smaller is older).
    pub linear: Vec<u64>,
    /// Dispatch cycle.
    pub start: Vec<u64>,
    /// Warps of the CTA (its slots are `c*W .. c*W + warps`).
    pub warps: Vec<u16>,
    /// Warps waiting at a barrier now.
    pub at_barrier: Vec<u16>,
    /// Warps finished (waiting at the implicit exit barrier).
    pub finished: Vec<u16>,
    /// Cycle the first warp arrived at the barrier the CTA waits on now (`None` when no warp
    /// waits).
    pub first_arrival: Vec<Option<u64>>,
    /// Warp instructions issued by the CTA.
    pub insts: Vec<u64>,
    /// Thread instructions issued by the CTA (PRO's progress).
    pub thread_insts: Vec<u64>,
}

impl CtaSlots {
    pub fn new(n: usize) -> CtaSlots {
        CtaSlots {
            resident: vec![false; n],
            linear: vec![0; n],
            start: vec![0; n],
            warps: vec![0; n],
            at_barrier: vec![0; n],
            finished: vec![0; n],
            first_arrival: vec![None; n],
            insts: vec![0; n],
            thread_insts: vec![0; n],
        }
    }
}

/// What a policy may read: the SM's warp and CTA slots and the cycle.
#[derive(Clone, Copy)]
pub struct PolicyView<'a> {
    pub now: u64,
    pub warps: &'a WarpSlots,
    pub ctas: &'a CtaSlots,
    /// Warp slots per CTA slot.
    pub warps_per_cta: usize,
    /// I-buffer depth (`sm.ibuffer_entries`).
    pub ib_depth: u8,
    /// The dispatcher has dispatched the kernel's last CTA (to any SM).
    pub all_dispatched: bool,
    /// Per scheduler: its occupied warp slots, oldest first (maintained on CTA launch/exit).
    pub age_order: &'a [Vec<u16>],
    /// Per scheduler: its occupied warp slots in slot order (maintained on CTA launch/exit).
    pub slot_order: &'a [Vec<u16>],
}

impl PolicyView<'_> {
    #[inline]
    pub fn occupied(&self, s: u16) -> bool {
        self.warps.occupied[s as usize]
    }

    #[inline]
    pub fn age(&self, s: u16) -> u64 {
        self.warps.age[s as usize]
    }

    #[inline]
    pub fn waiting(&self, s: u16) -> bool {
        self.warps.waiting[s as usize]
    }

    /// CTA slot of warp slot `s`.
    #[inline]
    pub fn cta_of(&self, s: u16) -> usize {
        s as usize / self.warps_per_cta.max(1)
    }

    /// The warp's next instruction reads or writes the result of an outstanding global/local
    /// load now.
    #[inline]
    pub fn long_dep(&self, s: u16) -> bool {
        self.warps.long_until[s as usize] > self.now
    }

    /// The warp may issue now if its unit is free (not blocked, valid I-buffer head).
    #[inline]
    pub fn candidate(&self, s: u16) -> bool {
        self.warps.occupied[s as usize] && self.warps.wake[s as usize] <= self.now
    }
}
