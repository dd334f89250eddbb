/** Runs a clean-up step whose failure changes nothing for the caller (closing a descriptor only read through, say). */
export function quietly(work: () => void): void {
  try {
    work();
  } catch {
    // clean-up of something this call made; nothing else depends on it
  }
}
