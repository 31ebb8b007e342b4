import { listMetadata, PostListRoute } from '@/components/blog/post-list-route'

type Params = { params: Promise<{ lang: string }> }

export const generateMetadata = async ({ params }: Params) => listMetadata(await params)

export default async function BlogPage({ params }: Params) {
  return <PostListRoute address={await params} />
}
