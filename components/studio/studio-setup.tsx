/** Shown at /studio when no Sanity project is configured: how to connect one. */
export function StudioSetup() {
  return (
    // Its own stylesheet is the site's (Tailwind): Sanity's is never loaded here (components/studio/lazy-studio.tsx).
    // Settings and commands are long unbroken words: they wrap anywhere rather than widen a 320 px screen.
    <main className="mx-auto max-w-2xl px-6 py-16 text-slate-800 [overflow-wrap:anywhere]">
      <h1 className="text-3xl font-bold">Connect a Sanity project to edit content</h1>
      <p className="mt-4">
        This site is running on its embedded seed content (<code>sanity/seed/production.ndjson</code>), so there is no Studio to show. To
        edit the site in the Studio:
      </p>
      <ol className="mt-6 list-decimal space-y-4 pl-6">
        <li>
          Create a project at sanity.io/manage (or run <code>npx sanity init --bare</code>) and note its project id.
        </li>
        <li>
          Put it in <code>.env.local</code>: <code>NEXT_PUBLIC_SANITY_PROJECT_ID=yourid</code> and <code>NEXT_PUBLIC_SANITY_DATASET=production</code>.
        </li>
        <li>
          Import the seed content: <code>npm run content:import</code>.
        </li>
        <li>
          Add <code>http://localhost:3000</code> (and your site address) as a CORS origin with credentials in the project&apos;s API settings.
        </li>
        <li>
          Restart <code>npm run dev</code> and open <code>/studio</code> again.
        </li>
      </ol>
      <p className="mt-6">The founders&apos; guide, docs/founders.md, &quot;Connect a Sanity project&quot;, has the details.</p>
    </main>
  )
}
