//! The policy's CTA order on one SM sampled at regular cycles (PRO Table IV: the sorted order
//! of the first CTAs of SM 0 every 1000 cycles), from the event log of a launch run with
//! `TimingOptions::event_log` and `cta_order_log` (policies that publish an order: `pro`, `mwf-*`, `saws`).
//!
//! The SM logs its order at the end of every cycle in which it changed: a `CtaOrder { ctas }`
//! event followed directly by `ctas` `CtaRank` events. A sample at cycle `t` is the order
//! logged last at or before `t` — so a re-sort on PRO's timer at `t` is in row `t`, the order
//! that holds for the next period, as the paper's table reads. Before the first logged order
//! (and whenever the SM holds no CTA) a row is empty.

use crate::stats::{LogKind, TimingStats};

/// One row: the sample cycle and the CTAs (linear grid indices) from rank 0 (highest
/// priority) on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CtaOrderRow {
    pub cycle: u64,
    pub order: Vec<u64>,
}

/// Rows at cycles `every`, `2·every`, … below `s.cycles`, each with at most `columns` ranks.
/// Empty when `every` is 0 or the log holds no order for SM `sm`.
pub fn cta_order_table(s: &TimingStats, sm: u32, every: u64, columns: usize) -> Vec<CtaOrderRow> {
    let mut rows = Vec::new();
    if every == 0 {
        return rows;
    }
    let mut current: Vec<u64> = Vec::new();
    // The order being read: its announced length and the ranks seen so far.
    let mut pending: Option<(usize, Vec<u64>)> = None;
    let mut next = every;
    let mut sample = |upto: u64, current: &[u64], rows: &mut Vec<CtaOrderRow>| {
        while next < upto.min(s.cycles) {
            let order = current.iter().copied().take(columns).collect();
            rows.push(CtaOrderRow { cycle: next, order });
            next += every;
        }
    };
    for e in s.events.iter().filter(|e| e.sm == sm) {
        // Samples before this event's cycle see the order as it stands.
        sample(e.cycle, &current, &mut rows);
        match e.kind {
            LogKind::CtaOrder { ctas } => pending = Some((ctas as usize, Vec::new())),
            LogKind::CtaRank { cta, .. } => {
                if let Some((_, o)) = pending.as_mut() {
                    o.push(cta);
                }
            }
            _ => continue,
        }
        if let Some((n, o)) = pending.take() {
            if o.len() >= n {
                current = o;
            } else {
                pending = Some((n, o));
            }
        }
    }
    sample(u64::MAX, &current, &mut rows);
    rows
}

/// The table as text, one line per row: `cycle`, then ranks 1, 2, … (the paper's layout).
pub fn cta_order_text(rows: &[CtaOrderRow]) -> String {
    let width = rows.iter().map(|r| r.order.len()).max().unwrap_or(0);
    let mut out = String::from("cycle");
    for r in 1..=width {
        out.push_str(&format!(" {r}"));
    }
    out.push('\n');
    for r in rows {
        out.push_str(&r.cycle.to_string());
        for c in &r.order {
            out.push_str(&format!(" {c}"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::*;
    use crate::stats::LogKind::*;

    /// `ev`s announcing `order` on `sm` at `cycle`.
    fn order(cycle: u64, sm: u32, order: &[u64]) -> Vec<crate::stats::LogEvent> {
        let mut v = vec![ev(
            cycle,
            sm,
            CtaOrder {
                ctas: order.len() as u32,
            },
        )];
        for (rank, &cta) in order.iter().enumerate() {
            v.push(ev(
                cycle,
                sm,
                CtaRank {
                    rank: rank as u32,
                    cta,
                },
            ));
        }
        v
    }

    #[test]
    fn samples_the_order_in_effect_at_each_period() {
        let mut s = empty();
        s.cycles = 4500;
        s.events.push(ev(3, 0, CtaStart { cta: 0 }));
        s.events.extend(order(3, 0, &[0, 1, 2]));
        // Another SM's orders never show.
        s.events.extend(order(500, 1, &[7, 8]));
        // Logged in the sample cycle itself: row 1000 shows it.
        s.events.extend(order(1000, 0, &[2, 0, 1]));
        s.events.extend(order(1200, 0, &[0, 2, 1]));
        // Two changes between samples: only the later one shows (row 2000).
        s.events.extend(order(1900, 0, &[1, 2, 0]));
        s.events.push(ev(2001, 0, CtaEnd { cta: 1 }));
        s.events.extend(order(2001, 0, &[2, 0]));
        s.events.extend(order(3500, 0, &[]));
        let rows = cta_order_table(&s, 0, 1000, 8);
        let got: Vec<(u64, Vec<u64>)> = rows.iter().map(|r| (r.cycle, r.order.clone())).collect();
        assert_eq!(
            got,
            vec![
                (1000, vec![2, 0, 1]),
                (2000, vec![1, 2, 0]),
                (3000, vec![2, 0]),
                (4000, vec![]),
            ]
        );
        // Columns cut each row; a sample before the first order is empty.
        let rows = cta_order_table(&s, 0, 2, 2);
        assert_eq!(rows[0].order, Vec::<u64>::new());
        assert_eq!(rows[1].order, vec![0, 1]);
        assert_eq!(
            cta_order_text(&cta_order_table(&s, 0, 1000, 2)[..2]),
            "cycle 1 2\n1000 2 0\n2000 1 2\n"
        );
        // SM 1 from cycle 500 on; no order at all on SM 2; a zero period gives nothing.
        assert_eq!(cta_order_table(&s, 1, 1000, 8)[0].order, vec![7, 8]);
        assert!(cta_order_table(&s, 2, 1000, 8)
            .iter()
            .all(|r| r.order.is_empty()));
        assert!(cta_order_table(&s, 0, 0, 8).is_empty());
    }
}
