/**
 * Shown at /studio when no Sanity project is configured: a marketer's or a new engineer's first
 * look at the Studio, so it says what the Studio is, how to connect a project, and how to edit the
 * embedded seed meanwhile. The steps are the founders' guide's ("Connect a Sanity project"), and
 * the offline publish is the editors' guide's ("Publish offline").
 */
export function StudioSetup() {
  return (
    // Its own stylesheet is the site's (Tailwind): Sanity's is never loaded here (components/studio/lazy-studio.tsx).
    // Settings and commands are long unbroken words: they wrap anywhere rather than widen a 320 px screen.
    <main className="min-h-screen bg-slate-50 px-4 py-12 text-slate-700 [overflow-wrap:anywhere] sm:py-20">
      <div className="mx-auto max-w-2xl">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Studio</p>
        <h1 className="mt-2 text-3xl font-bold text-slate-900 sm:text-4xl">Connect a Sanity project to edit content</h1>
        <p className="mt-4 text-lg">
          The Studio is where this site&apos;s words, prices, links, images, pages, posts, e-mail texts, translations and experiments are written and published,
          without a developer. It opens here once a Sanity project is connected; until then the site runs on its embedded seed content.
        </p>

        <section aria-labelledby="connect" className="mt-10 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h2 id="connect" className="text-xl font-bold text-slate-900">
            Connect a project in three steps
          </h2>
          <ol className="mt-5 list-decimal space-y-4 pl-6 marker:font-semibold marker:text-brand-700">
            <li>
              Create a project at sanity.io/manage (or run <code>npx sanity init --bare</code>), and in its API settings add <code>http://localhost:3000</code>{' '}
              and your site&apos;s address as CORS origins with credentials.
            </li>
            <li>
              Put its id in <code>.env.local</code> (<code>NEXT_PUBLIC_SANITY_PROJECT_ID=yourid</code>, <code>NEXT_PUBLIC_SANITY_DATASET=production</code>) and
              copy the seed content into it: <code>npm run content:import</code>.
            </li>
            <li>
              Restart <code>npm run dev</code> and open <code>/studio</code> again.
            </li>
          </ol>
          <p className="mt-5 text-sm text-slate-600">
            The publish webhook and the preview token are in the founders&apos; guide, <code>docs/founders.md</code>, &ldquo;Connect a Sanity project&rdquo;.
          </p>
        </section>

        <section aria-labelledby="meanwhile" className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h2 id="meanwhile" className="text-xl font-bold text-slate-900">
            Meanwhile, edit the seed
          </h2>
          <p className="mt-4">
            Every document is a JSON file in <code>sanity/seed/documents/</code>. Publish a changed one as the Studio would:{' '}
            <code>npm run content:publish -- change.json</code> checks it against the Studio&apos;s rules, writes it to the local content and sends the same
            signed webhook, so the running site shows it at once.
          </p>
          <p className="mt-4 text-sm text-slate-600">
            How, with examples: the editors&apos; guide, <code>docs/editors.md</code>, &ldquo;Publish offline&rdquo;.
          </p>
        </section>
      </div>
    </main>
  )
}
