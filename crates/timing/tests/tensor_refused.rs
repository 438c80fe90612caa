//! Tensor-core instructions in timing mode on a preset without tensor units (gtx480,
//! titanx-pascal: `units.tensor = 0`): a kernel that reaches one is refused by name before it
//! runs, not timed as something else and not a panic; functional mode executes it. (The
//! presets with tensor units time them: `tests/tensor_timing.rs`.)

use crate::common;
use common::*;
use warpsim_timing::PolicyKind;

#[test]
fn timing_mode_refuses_a_tensor_core_kernel_by_name() {
    let body = "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r40}, [%r41];";
    let src = kernel(
        ".shared .align 16 .b8 buf[256];",
        &format!("mov.u32 %r41, buf;\n{body}"),
    );
    let functional = run(&src, 1, 32, 32, None);
    assert_eq!(functional.error, None);
    let cfg = gtx480();
    let timed = run(&src, 1, 32, 32, Some((&cfg, PolicyKind::GTO)));
    let err = timed.error.expect("refused");
    assert!(
        err.contains("ldmatrix.sync.aligned.m8n8.x1.shared.b16")
            && err.contains("no tensor cores")
            && err.contains("`gtx480`")
            && err.contains("line 19"),
        "{err}"
    );
}
