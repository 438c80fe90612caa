//! `.file`/`.loc` (nvcc `-lineinfo`, `-G`): each instruction's CUDA source position, and the
//! `file.cu:line` a fault report gives beside the PTX line.

use warpsim_core::device::{Arg, DevPtr, Device, DeviceError, Dim3, LaunchConfig};

const PTX: &str = r#".version 9.5
.target sm_75
.address_size 64
.file 1 "/src/kernels/scale.cu"
.file 2 "/usr/include/helper.h"

.visible .entry k(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [out];
.loc 1 7 3
cvta.to.global.u64 %rd2, %rd1;
mov.u32 %r1, %tid.x;
.loc 2 40 1, function_name $L__info_string0, inlined_at 1 9 5
mul.wide.u32 %rd3, %r1, 4;
{
add.s64 %rd3, %rd2, %rd3;
}
.loc 1 12 5
st.global.u32 [%rd3+4096], %r1;
ret;
}
"#;

#[test]
fn loc_directives_give_each_instruction_its_source_line() {
    let m = warpsim_core::load_ptx(PTX).unwrap();
    assert_eq!(
        m.files,
        vec![
            (1, "/src/kernels/scale.cu".to_string()),
            (2, "/usr/include/helper.h".to_string())
        ]
    );
    let k = m.function("k").unwrap();
    let f = &m.functions[k as usize];
    let at = |pc| m.source_of(k, pc);
    // ld.param precedes every .loc; the rest follow theirs, through the nested block.
    assert_eq!(f.insts.len(), 7);
    assert_eq!(at(0), None);
    assert_eq!(at(1), Some(("/src/kernels/scale.cu", 7)));
    assert_eq!(at(2), Some(("/src/kernels/scale.cu", 7)));
    assert_eq!(at(3), Some(("/usr/include/helper.h", 40)));
    assert_eq!(at(4), Some(("/usr/include/helper.h", 40)));
    assert_eq!(at(5), Some(("/src/kernels/scale.cu", 12)));
    assert_eq!(at(6), Some(("/src/kernels/scale.cu", 12)));
    assert_eq!(at(7), None, "past the end");
}

#[test]
fn ptx_without_loc_keeps_no_table() {
    let plain: String = PTX
        .lines()
        .filter(|l| !l.starts_with(".loc") && !l.starts_with(".file"))
        .collect::<Vec<_>>()
        .join("\n");
    let m = warpsim_core::load_ptx(&plain).unwrap();
    assert!(m.files.is_empty());
    assert!(m.functions.iter().all(|f| f.source.is_empty()));
    assert_eq!(m.source_of(0, 1), None);
}

#[test]
fn a_fault_report_names_the_cuda_source_line() {
    let mut dev = Device::new();
    let module = dev.load_ptx(PTX).unwrap();
    let k = dev.kernel(module, "k").unwrap();
    let out: DevPtr = dev.alloc_zeroed::<u32>(4).unwrap();
    let cfg = LaunchConfig {
        grid: Dim3::from(1),
        block: Dim3::from(32),
        dynamic_shared: 0,
    };
    let err = dev.launch(k, cfg, &[Arg::Ptr(out)]).unwrap_err();
    match &err {
        DeviceError::MemoryFault { location, .. } => {
            assert_eq!(location.source.as_deref(), Some("/src/kernels/scale.cu:12"));
            assert_eq!(location.pc, 5);
        }
        other => panic!("expected a memory fault, got {other}"),
    }
    let text = err.to_string();
    assert!(
        text.contains("(PTX line 21, /src/kernels/scale.cu:12)"),
        "{text}"
    );
}
