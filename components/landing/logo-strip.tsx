import type { LandingPage } from '@/lib/content'
import { Container } from '@/components/ui/container'

export function LogoStrip({ logos, sampleLabel }: { logos: LandingPage['logos']; sampleLabel: string }) {
  const allSample = logos.items.every((item) => item.isSample)
  return (
    <section aria-labelledby="logos-title" className="border-y border-slate-100 bg-white">
      <Container className="py-10">
        <h2 id="logos-title" className="text-center text-sm font-medium text-slate-500">
          {logos.title}
          {allSample ? <SampleTag label={sampleLabel} /> : null}
        </h2>
        <ul className="mt-6 flex flex-wrap items-center justify-center gap-x-10 gap-y-4">
          {logos.items.map((logo) => (
            <li key={logo.key} className="text-lg font-semibold tracking-tight text-slate-500">
              {logo.name}
              {logo.isSample && !allSample ? <SampleTag label={sampleLabel} /> : null}
            </li>
          ))}
        </ul>
      </Container>
    </section>
  )
}

export function SampleTag({ label }: { label: string }) {
  return <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 align-middle text-[0.65rem] font-semibold uppercase tracking-wide text-amber-800">{label}</span>
}
