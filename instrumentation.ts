/**
 * Runs once when the server starts: a deployed server without its configuration stops here, loudly;
 * then every request's method is checked before Next sees it (TRACE and CONNECT answer 405, not a
 * 500 and a stack trace in the log), and a `Vary` proxy.ts sets survives Next's own (lib/http/vary.ts);
 * and the proxy learns the build's preview mode id, to tell a draft session from a forged cookie.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { assertDeployableConfiguration } = await import('@/lib/env')
  assertDeployableConfiguration()
  const { guardEveryServer } = await import('@/lib/http/method-guard')
  guardEveryServer()
  const { loadPreviewModeId } = await import('@/lib/http/preview-mode')
  loadPreviewModeId()
}
