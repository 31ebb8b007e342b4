/** One of the founders' reads through a service-role call: its data, or an error that names what could not be read. */
export async function readCall<T>(what: string, call: PromiseLike<{ data: unknown; error: { message: string } | null }>): Promise<T> {
  const { data, error } = await call
  if (error) throw new Error(`Could not read ${what}: ${error.message}`)
  return data as T
}
