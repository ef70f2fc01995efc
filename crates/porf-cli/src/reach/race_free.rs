//! When porf decides `--model ra`: Lahav and Boker's Theorem 3.12 says SRA, RA and WRA
//! reach the same states when every SRA-consistent execution is free of write/write
//! races (Def. 3.11), so RA reachability is SRA reachability (Cor. 8.9). porf shows
//! race freedom by a sufficient syntactic condition, for every location:
//! * at most one thread writes it (the `init` writes happen before everything and
//!   writes of one thread are ordered by po), or
//! * every write to it, other than its `init` write, is a read-modify-write: under
//!   SRA's atomicity an RMW reads its immediate mo-predecessor, so the writes form an
//!   rf-chain and are all hb-ordered.
//!
//! Programs outside this condition are refused, never guessed.

use porf_toylang::Program;
use porf_wsts::{Label, System};

/// `Ok` if the condition holds; otherwise the first location it fails for.
pub fn check(prog: &Program, sys: &System) -> Result<(), String> {
    let n = prog.locations.len();
    let mut writers: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut plain: Vec<bool> = vec![false; n];
    // System thread 0 is the initialisation thread.
    for (t, th) in sys.threads.iter().enumerate().skip(1) {
        for ts in &th.trans {
            for (l, _) in ts {
                let x = match *l {
                    Label::Write { loc, .. } => {
                        plain[usize::from(loc)] = true;
                        loc
                    }
                    Label::Rmw { loc, .. } => loc,
                    _ => continue,
                };
                let w = &mut writers[usize::from(x)];
                if !w.contains(&t) {
                    w.push(t);
                }
            }
        }
    }
    for x in 0..n {
        if writers[x].len() > 1 && plain[x] {
            return Err(format!(
                "location {} is written by {} threads, not only by read-modify-writes",
                prog.locations[x],
                writers[x].len()
            ));
        }
    }
    Ok(())
}
