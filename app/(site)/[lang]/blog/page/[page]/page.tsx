import { listMetadata, listParams, PostListRoute } from '@/components/blog/post-list-route'

type Params = { params: Promise<{ lang: string; page: string }> }

export const generateStaticParams = ({ params }: { params: { lang: string } }) => listParams({ withCategory: false, withPage: true }, params.lang)

export const generateMetadata = async ({ params }: Params) => listMetadata(await params)

export default async function BlogListPage({ params }: Params) {
  return <PostListRoute address={await params} />
}
