/**
 * The "Sample" marker beside made-up content (a logo, a quote, a post) while samples are shown:
 * a founder sees at a glance what still waits for the real thing (sanity/content/sample.ts).
 */
export function SampleTag({ label }: { label: string }) {
  return (
    <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 align-middle text-[0.65rem] font-semibold uppercase tracking-wide text-amber-800">{label}</span>
  )
}
