//! The arrays `FlappyVectorEnv(copy=False)` returns from every step: typed
//! NumPy views of one byte array that each step overwrites. One tracked
//! borrow of the bytes covers all five views (numpy's borrow tracking costs
//! about as much per array as making a fresh one, so five would gain nothing).

use numpy::ndarray::{ArrayView1, ArrayView2};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

/// The byte array and its views: rewards (`f64`), pipes (`u64`),
/// observations (`f32`, `n × features`), terminations, truncations, in
/// that order (each starts aligned for its type).
pub(crate) struct InPlace {
    bytes: Py<PyArray1<u8>>,
    pub obs: Py<PyArray2<f32>>,
    pub reward: Py<PyArray1<f64>>,
    pub terminated: Py<PyArray1<bool>>,
    pub truncated: Py<PyArray1<bool>>,
    pub pipes: Py<PyArray1<u64>>,
}

/// The mutable regions of the byte array, typed.
pub(crate) struct Regions<'a> {
    pub obs: &'a mut [f32],
    pub reward: &'a mut [f64],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub pipes: &'a mut [u64],
}

/// Byte offsets of the regions: pipes, observations, terminations,
/// truncations, end (rewards start at 0).
fn offsets(n: usize, features: usize) -> [usize; 5] {
    let pipes = 8 * n;
    let obs = 16 * n;
    let terminated = obs + 4 * n * features;
    [pipes, obs, terminated, terminated + n, terminated + 2 * n]
}

impl InPlace {
    pub fn new(py: Python<'_>, n: usize, features: usize) -> PyResult<InPlace> {
        let [p, o, te, tr, end] = offsets(n, features);
        let bytes = PyArray1::<u8>::zeros(py, end, false);
        let base = bytes.data();
        if base.align_offset(8) != 0 {
            return Err(crate::value_error("NumPy gave an unaligned buffer"));
        }
        let owner = || bytes.clone().into_any();
        // SAFETY: every view lies inside `bytes` (the offsets above), is
        // aligned for its type (`base` is 8-aligned, each offset a multiple
        // of its type's size), reads zero bytes (valid for every type here)
        // and keeps `bytes` alive as its base; `bytes` is never reallocated.
        let (obs, reward, terminated, truncated, pipes) = unsafe {
            (
                PyArray2::borrow_from_array(
                    &ArrayView2::from_shape_ptr((n, features), base.add(o).cast::<f32>()),
                    owner(),
                ),
                PyArray1::borrow_from_array(
                    &ArrayView1::from_shape_ptr(n, base.cast::<f64>()),
                    owner(),
                ),
                PyArray1::borrow_from_array(
                    &ArrayView1::from_shape_ptr(n, base.add(te).cast::<bool>()),
                    owner(),
                ),
                PyArray1::borrow_from_array(
                    &ArrayView1::from_shape_ptr(n, base.add(tr).cast::<bool>()),
                    owner(),
                ),
                PyArray1::borrow_from_array(
                    &ArrayView1::from_shape_ptr(n, base.add(p).cast::<u64>()),
                    owner(),
                ),
            )
        };
        Ok(InPlace {
            bytes: bytes.unbind(),
            obs: obs.unbind(),
            reward: reward.unbind(),
            terminated: terminated.unbind(),
            truncated: truncated.unbind(),
            pipes: pipes.unbind(),
        })
    }

    /// Borrows the byte array mutably (numpy's tracked borrow: fails if Rust
    /// code elsewhere holds any of the views) and hands `write` its regions.
    pub fn write<R>(
        &self,
        py: Python<'_>,
        n: usize,
        features: usize,
        write: impl FnOnce(Regions<'_>) -> R,
    ) -> PyResult<R> {
        let mut guard = self
            .bytes
            .bind(py)
            .try_readwrite()
            .map_err(crate::value_error)?;
        let bytes = guard.as_slice_mut().map_err(crate::value_error)?;
        let [p, o, te, tr, end] = offsets(n, features);
        // The flags may hold any byte (Python can write through a uint8
        // view); zero them so they are valid `bool`s.
        bytes[te..end].fill(0);
        let (head, flags) = bytes.split_at_mut(te);
        let (numbers, obs) = head.split_at_mut(o);
        let (reward, pipes) = numbers.split_at_mut(p);
        let (terminated, truncated) = flags.split_at_mut(tr - te);
        // SAFETY: f64, u64 and f32 accept any bytes, and `align_to_mut`
        // leaves no prefix since the regions are aligned (checked in `new`);
        // the flags were just zeroed, and 0 is `false`.
        let regions = unsafe {
            Regions {
                reward: aligned(reward)?,
                pipes: aligned(pipes)?,
                obs: aligned(obs)?,
                terminated: &mut *(std::ptr::from_mut::<[u8]>(terminated) as *mut [bool]),
                truncated: &mut *(std::ptr::from_mut::<[u8]>(truncated) as *mut [bool]),
            }
        };
        Ok(write(regions))
    }
}

/// `bytes` as a slice of `T`, which must accept any bit pattern.
///
/// # Safety
/// Every bit pattern must be a valid `T`.
unsafe fn aligned<T>(bytes: &mut [u8]) -> PyResult<&mut [T]> {
    // SAFETY: the caller guarantees any bytes are a valid `T`.
    match unsafe { bytes.align_to_mut::<T>() } {
        ([], body, []) => Ok(body),
        _ => Err(crate::value_error("unaligned output region")),
    }
}
