/** Runs once when the server starts: a deployed server without its configuration stops here, loudly. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { assertDeployableConfiguration } = await import('@/lib/env')
  assertDeployableConfiguration()
}
