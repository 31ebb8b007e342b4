import { draftMode } from 'next/headers'
import { redirect } from 'next/navigation'

/** Leaves draft preview: the published site again. */
export async function GET() {
  ;(await draftMode()).disable()
  redirect('/')
}
