import { listMetadata, PostListRoute } from '@/components/blog/post-list-route'

export const generateMetadata = () => listMetadata({})

export default function BlogPage() {
  return <PostListRoute address={{}} />
}
