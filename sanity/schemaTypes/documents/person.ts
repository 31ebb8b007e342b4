import { UserIcon } from '@sanity/icons/User'
import { defineType } from 'sanity'
import { stringField } from '../objects/fields'
import { imageField } from '../objects/image'
import { sampleFlagField } from '../objects/sampleFlag'

/** Someone who writes posts: shown under a post's title and in its structured data. */
export const person = defineType({
  name: 'person',
  title: 'Author',
  type: 'document',
  icon: UserIcon,
  fields: [
    stringField({ name: 'name', title: 'Name', max: 80 }),
    stringField({ name: 'role', title: 'Role', description: 'e.g. "Co-founder, product". Shown beside the name.', max: 80, required: false }),
    imageField({ name: 'picture', title: 'Picture', description: 'A square portrait works best; shown small beside the name.', altDescription: null }),
    sampleFlagField({ initialValue: false, description: 'On while this is a made-up author: a deployed site leaves them off its posts.' }),
  ],
  preview: { select: { title: 'name', subtitle: 'role', media: 'picture' } },
})
