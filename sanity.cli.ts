import { defineCliConfig } from 'sanity/cli'
import { publicEnv } from './lib/env'

export default defineCliConfig({
  api: {
    // The CLI's commands (typegen, dataset import) need a project id even when none is set.
    projectId: publicEnv.sanityProjectId ?? 'unconfigured',
    dataset: publicEnv.sanityDataset,
  },
  typegen: {
    path: ['./sanity/queries.ts'],
    schema: './sanity/extract.json',
    generates: './sanity/types.generated.ts',
    overloadClientMethods: true,
  },
})
