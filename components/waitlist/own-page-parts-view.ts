// The chunk components/waitlist/own-page-parts.ts loads: what a confirmed person's page adds.
export { LeaderboardChoice } from './leaderboard-choice'
export { ResearchTasks } from './research-tasks'
