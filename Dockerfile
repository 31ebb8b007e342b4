# The site for hosts other than Vercel: Next's standalone server (node server.js), built from this
# repository as `npm run build` builds it. Vercel builds from the repository itself (vercel.json).
# tools/test/dockerfile-steps.ts runs these steps as a script, where there is no Docker.
#
#   docker build -t site --build-arg NEXT_PUBLIC_SITE_URL=https://<your site> \
#     --build-arg NEXT_PUBLIC_SANITY_PROJECT_ID=… --build-arg NEXT_PUBLIC_SUPABASE_URL=… \
#     --build-arg NEXT_PUBLIC_SUPABASE_ANON_KEY=… .
#   docker run -p 3000:3000 --env-file site.env site
#
# The NEXT_PUBLIC_ values and PRODUCT_WIDGET_ORIGIN are written into the pages and scripts at build,
# so they are build arguments; the secrets are the running container's (README, "Configuration").
# REDIS_URL too must be set at build as well as at run: the standalone server keeps the Next
# config it was built with (next.config.ts chooses the shared cache from it).

FROM node:22-bookworm-slim AS build
WORKDIR /src
ARG NEXT_PUBLIC_SITE_URL
ARG NEXT_PUBLIC_SANITY_PROJECT_ID
ARG NEXT_PUBLIC_SANITY_DATASET
ARG NEXT_PUBLIC_SANITY_API_VERSION
ARG NEXT_PUBLIC_SUPABASE_URL
ARG NEXT_PUBLIC_SUPABASE_ANON_KEY
ARG NEXT_PUBLIC_POSTHOG_KEY
ARG NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION
ARG PRODUCT_WIDGET_ORIGIN
ARG REDIS_URL
ARG SANITY_API_READ_TOKEN
# Only for a local trial of the image on the seed content (what `npm run preview` serves).
ARG EMBEDDED_DEFAULTS
# The lock pins every version; `npm install` as CI runs it (npm ci refuses this lock where the
# registry lacks other platforms' optional binaries). Its postinstall patches Next (patches/).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_OUTPUT=standalone
RUN npx next build

FROM node:22-bookworm-slim AS run
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
# The server and the node_modules it traced; the static files it serves beside them.
COPY --from=build /src/.next/standalone ./
COPY --from=build /src/.next/static ./.next/static
USER node
EXPOSE 3000
CMD ["node", "server.js"]
