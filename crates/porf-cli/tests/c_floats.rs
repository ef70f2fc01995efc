//! `float` and `double` (`tests/c/floats/*.c`): values stored in globals, struct
//! fields, arrays and the heap and exchanged between threads through mutex-protected
//! globals, IEEE comparisons and rounding, conversions in both directions (an
//! out-of-range float-to-int conversion is a memory-class error), printf's floating
//! conversions, and the rejected constructs (atomic floating objects, `long double`,
//! `%` on a double).
//!
//! Each file states what porf must answer, in the comment format of
//! `common/expect.rs` (written by hand from C11 and IEEE 754, never pasted from
//! porf's output); the programs that do not use porf-only flags were also compiled
//! with gcc and run natively, with the same verdicts.

mod common;

#[test]
fn float_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/floats", 10, ".c:");
}

/// The witness of `printf_floats.c` shows the text C11 7.21.6.1 prescribes (glibc
/// prints the same): `%f` 2.5 with six decimals; `%.2f` of 1/3; `%e` of 1234.5;
/// `%g` of 1e-5 (exponent -5 < -4: `e` style, trailing zeros dropped) and of 100000
/// (exponent 5 < precision 6: `f` style); `%8.3f` of -2.5 padded to 8; `%-6.1f` of the
/// float 1/3 (promoted to double) left-aligned; `%+.0f` of 0.5 (a tie: rounds to the
/// even 0, with the sign); `%g` of -0.0 keeps the sign.
#[test]
fn printf_formats_floating_conversions() {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/c/floats/printf_floats.c"
    );
    let (code, out, _) = common::porf(&["verify", p]);
    assert_eq!(code, 42, "{out}");
    let want = r#"printed "2.500000|0.33|1.234500e+03|1e-05|100000|  -2.500|0.3   |+0|-0\n""#;
    assert!(out.contains(want), "{out}");
    // The float global's value is shown as a number in the witness, not as bits:
    // 1.0f / 3 is 0x3EAAAAAB, whose shortest round-trip decimal is 0.33333334.
    assert!(
        out.lines()
            .any(|l| l.contains("R third na") && l.contains("0.33333334")),
        "{out}"
    );
}
