//! The kernel IR: PTX lowered to dense, typed instruction arrays.
//!
//! Architecture invariant: nothing in the IR is a string that the executor or the timing model
//! has to look at; registers, predicates, labels, symbols and callees are resolved to indices,
//! offsets or addresses at lowering, and every unsupported form is rejected there.

pub mod function;
pub mod inst;
pub mod layout;
pub mod tensor;
pub mod types;

pub use function::*;
pub use inst::*;
pub use tensor::{Elem, Major, Matrix, TensorInst, TensorKind};
pub use types::*;
