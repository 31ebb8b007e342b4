import { switchLanguage } from '@/components/site/language-switch'

// Each answer depends on the page the visitor came from.
export const dynamic = 'force-dynamic'

export const GET = async (request: Request, { params }: { params: Promise<{ code: string }> }) => switchLanguage(request, (await params).code)
