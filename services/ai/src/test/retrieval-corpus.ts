// Retrieval-quality fixture: one person's notes and questions over them, with the ids of the notes
// that answer each question. Used to measure recall@5 and MRR of the BM25, embedding and
// reciprocal-rank-fusion rankers, per group of questions. 357 notes (48 in Chinese, some more in
// a mix of Chinese and English) and 257 questions. The notes look like a real person's: the app's
// welcome note and notes of generic words (note, idea, list, remember), many short ones (grocery
// lists, phone numbers, a wifi password, a quote, a link, half a thought) beside long ones, and
// clusters (Atlas / Beacon / Harbor meetings, 1:1s, garlic recipes, trips, habit books, running
// logs, monthly budgets, checkups, dentist visits, rent, renovation, grocery lists, D&D sessions,
// ...) that hold near-duplicates and distractors on purpose: a question is answered only by the
// notes listed in its `relevant`, and the `none` questions by no note at all.
// retrieval-corpus.test.ts checks the set.

export interface CorpusNote {
  id: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: string;
}

/**
 * What a question tests:
 * - keyword: uses the answering note's own rare words (names, terms, numbers)
 * - reworded: asked the way a person remembers it, sharing no content word with the answering note
 * - zh: a Chinese question about a Chinese note
 * - cross: across languages, an English question about a Chinese note or the other way round
 * - typo: a keyword question with a misspelt word or two (transposed or missing letters)
 * - multi: several notes answer it
 * - none: sounds like something this person could have written down, but no note answers it
 */
export type QuestionGroup = 'keyword' | 'reworded' | 'zh' | 'cross' | 'typo' | 'multi' | 'none';

export const QUESTION_GROUPS: readonly QuestionGroup[] = [
  'keyword',
  'reworded',
  'zh',
  'cross',
  'typo',
  'multi',
  'none',
];

export interface CorpusQuestion {
  question: string;
  /** ids of the notes that answer it: none for a `none` question */
  relevant: string[];
  group: QuestionGroup;
}

export const corpusNotes: CorpusNote[] = [
  {
    id: 'n001',
    title: 'New Year 2025',
    createdAt: '2025-01-01T20:00:00Z',
    tags: ['journal', 'goals'],
    body: `# Jan 1, 2025

Quiet New Year's. Stayed in with Sam, hot pot, watched the Space Needle fireworks on TV, asleep by 12:30.

## Intentions for 2025
- Run a **half marathon** (pick one in the fall)
- Start **Japanese** properly — tutor + daily Anki, not just Duolingo streaks
- Read 24 books
- Less phone in bed
- Grow our own tomatoes (finally build the raised beds)
- Call Mom and Dad every Sunday

Keeping it short this year. Last year's list had 15 items and I forgot it by March.`,
  },
  {
    id: 'n002',
    title: 'Reading list 2025',
    createdAt: '2025-01-03T06:00:00Z',
    tags: ['books', 'reading-list'],
    body: `# Reading list 2025

Goal: 24 books.

## Nonfiction
- [x] Atomic Habits
- [ ] Thinking, Fast and Slow
- [ ] Four Thousand Weeks
- [ ] Range
- [ ] Deep Work
- [ ] Sapiens (Sam's copy)

## Tech
- [ ] Designing Data-Intensive Applications (re-read, for work)
- [ ] The Pragmatic Programmer

## Fiction
- [ ] Project Hail Mary
- [ ] Klara and the Sun
- [ ] 三体 in Chinese finally
- [ ] Tomorrow, and Tomorrow, and Tomorrow

Rule: max two books in progress at a time.`,
  },
  {
    id: 'n003',
    title: 'Home maintenance calendar',
    createdAt: '2025-01-05T19:00:00Z',
    tags: ['home', 'maintenance', 'checklist'],
    body: `# Home maintenance calendar

## Monthly
- [ ] Clean the dishwasher filter
- [ ] Test smoke/CO alarms
- [ ] Run water in the guest bathroom (trap dries out)

## Spring
- [ ] Gutters (second round)
- [ ] Check the sprinklers / hoses
- [ ] Power wash the deck

## Fall
- [ ] Furnace service + new filter
- [ ] Gutters after the leaves
- [ ] Drain and store hoses, cover outdoor faucets before the first freeze
- [ ] Flush the water heater

## Every 3 months
- [ ] Replace the furnace filter`,
  },
  {
    id: 'n004',
    title: 'Savings goals 2025',
    createdAt: '2025-01-08T04:00:00Z',
    tags: ['finance', 'goals'],
    body: `# Savings goals 2025

## Emergency fund
Target: **6 months of expenses = $27,000**. Currently $19,500 in the high-yield savings account (4.1% APY). Add $1,000/month → done by August.

## House down payment
We'd like to upgrade to a 3-bedroom in ~3 years. Target $90k (20% of ~$450k… lol Seattle, probably more). Currently $31k in a brokerage account, conservative mix.

## Japan trip fund
$6,000 by early 2026. $300/month into a separate bucket.

## Rules
- Automate transfers on payday (the 1st and 15th)
- Windfalls (bonus, tax refund): 50% savings, 30% investing, 20% fun`,
  },
  {
    id: 'n005',
    title: 'Atomic Habits — notes',
    createdAt: '2025-01-12T05:00:00Z',
    tags: ['books', 'habits', 'nonfiction'],
    body: `# Atomic Habits — James Clear

⭐⭐⭐⭐ Practical, a bit repetitive.

## Big ideas
- **Identity-based habits**: focus on who you want to become ("I'm a runner"), not the outcome ("run a marathon")
- The loop is cue → craving → response → reward, and the four laws flip it into rules: make it obvious, attractive, easy, satisfying
- **Environment design beats motivation.** Habits are shaped by the spaces we live in: put the cue where you can't miss it (guitar stand in the living room, fruit on the counter), make bad habits invisible (phone charger in the kitchen, not by the bed)
- **Two-minute rule**: scale a new habit down to two minutes ("put on running shoes")
- **Habit stacking**: "after I pour my coffee, I will write three lines in my journal"
- Never miss twice

## What I'm trying
- Running clothes laid out the night before
- Phone charges in the hallway
- Japanese flashcards right after morning coffee`,
  },
  {
    id: 'n006',
    title: 'Garlic butter shrimp',
    createdAt: '2025-01-14T02:30:00Z',
    tags: ['recipe', 'dinner', 'garlic', 'seafood'],
    body: `# Garlic butter shrimp

Weeknight dinner, 15 minutes. Serves 2.

## Ingredients
- 450 g shrimp, peeled and deveined, patted **very** dry
- 6 cloves garlic, minced
- 3 tbsp butter
- 1 tbsp olive oil
- pinch of chili flakes
- juice of half a lemon, parsley

## Steps
1. Season shrimp with salt and pepper.
2. Oil in a hot pan, shrimp in one layer, **2 minutes per side** until pink. Remove.
3. Lower heat, add butter, then the garlic for 30–60 seconds.
4. Shrimp back in, lemon juice, parsley, toss.

Serve over rice or with crusty bread. Sam says more lemon next time.`,
  },
  {
    id: 'n007',
    title: 'Snow day',
    createdAt: '2025-01-19T23:00:00Z',
    tags: ['journal'],
    body: `# Jan 19 — snow day

Actual snow in Seattle! About 5 cm, which means the whole city shuts down.

Walked to Gas Works Park with Sam, people sledding on cardboard down the kite hill. Miso watched the snow from the window for an hour, tail twitching.

Made hot chocolate and did a 1,000-piece puzzle (didn't finish, the sky part is impossible).

Work tomorrow is probably remote. Feeling calm for the first time in weeks.`,
  },
  {
    id: 'n008',
    title: 'Week of Jan 20',
    createdAt: '2025-01-20T15:00:00Z',
    tags: ['work', 'planning'],
    body: `# Week of Jan 20

## Top 3
1. Beacon discovery: read Stripe Billing docs, list unknowns
2. Review Marcus's RFC on the app architecture
3. Clean up on-call runbooks

## Todo
- [x] Expense report for December
- [x] Reply to recruiter (no)
- [ ] Book dentist
- [ ] Flaky test in checkout suite

## Notes
Monday is MLK day, short week. Try to keep Wednesday afternoon meeting-free.`,
  },
  {
    id: 'n009',
    title: '401k and IRA setup',
    createdAt: '2025-01-25T05:00:00Z',
    tags: ['finance', 'retirement'],
    body: `# 401k + IRA

- **401k contribution: 12% of salary**, employer matches 100% of the first 5%
- Investing in the **2055 target date fund** (expense ratio 0.08%) — boring on purpose
- 2025 limit: $23,500; I'll hit ~$21k at 12%, bump to 14% after the raise
- **Backdoor Roth IRA**: contribute $7,000 to traditional IRA (non-deductible), convert right away. Keep the traditional IRA balance at $0 to avoid the pro-rata rule. File Form 8606!
- HSA: max it, invest it, don't spend from it

Rebalance once a year in January. Don't check the balance daily.`,
  },
  {
    id: 'n010',
    title: 'Postgres: reading EXPLAIN ANALYZE',
    createdAt: '2025-01-28T21:00:00Z',
    tags: ['programming', 'postgres'],
    body: `# Postgres: reading EXPLAIN ANALYZE

Always use \`EXPLAIN (ANALYZE, BUFFERS)\` — buffers show how much came from cache vs disk.

Checklist when a query is slow:
- Compare **estimated rows vs actual rows**. Off by 10×+ → stale statistics, run \`ANALYZE tablename;\`
- \`Seq Scan\` on a big table with a selective filter → missing index
- \`Nested Loop\` with a huge outer side → planner misestimate, check join columns stats
- \`Sort Method: external merge Disk\` → bump \`work_mem\` for that session
- \`loops=\` multiplies the time shown per node

https://explain.dalibo.com is nice for visualizing plans.`,
  },
  {
    id: 'n011',
    title: 'Instant Pot turkey chili',
    createdAt: '2025-01-31T02:00:00Z',
    tags: ['recipe', 'dinner', 'instant-pot', 'meal-prep'],
    body: `# Instant Pot turkey chili

Meal prep staple, 6 portions.

- 1 kg ground turkey
- 1 onion, 1 bell pepper, 3 cloves garlic
- 2 cans kidney beans, 1 can black beans, rinsed
- 1 can crushed tomatoes, 2 tbsp tomato paste
- 2 tbsp chili powder, 1 tbsp cumin, 1 tsp smoked paprika, oregano
- 1 cup stock

1. Sauté mode: brown turkey, then onion and pepper.
2. Spices and tomato paste 1 min.
3. Everything else, deglaze so you don't get the BURN warning.
4. **High pressure 15 min**, natural release 10 min.

Freezes great. Top with yogurt, cheddar, scallions.`,
  },
  {
    id: 'n012',
    title: 'Home Wi-Fi setup',
    createdAt: '2025-02-01T22:00:00Z',
    tags: ['home', 'tech', 'network'],
    body: `# Home Wi-Fi setup

Replaced the ISP router with an **eero 6+ mesh**, 3 nodes: living room (gateway), office, upstairs hallway.

- ISP modem in bridge mode
- Main network for laptops/phones, **separate IoT network** for the thermostat, TV, cameras, smart plugs
- Guest network with a QR code on the fridge
- **DNS: 1.1.1.1 and 1.0.0.1** (Cloudflare), ad blocking not on eero (no subscription)
- Reserved IP for the NAS: 192.168.4.20
- Office node wired via ethernet backhaul → office speed went from 90 to 480 Mbps

Firmware auto-updates at 3am.`,
  },
  {
    id: 'n013',
    title: '妈妈的红烧肉',
    createdAt: '2025-02-02T03:00:00Z',
    tags: ['recipe', '中文', 'family'],
    body: `# 妈妈的红烧肉

春节视频的时候妈妈一步一步教我的，记下来免得忘。

## 材料
- 五花肉 600 克，切成 3 厘米的块
- 冰糖 30 克（一定要冰糖，颜色才亮）
- 生抽 2 勺，老抽 1 勺
- 料酒 2 勺
- 姜 4 片，葱 2 根，八角 2 个，桂皮一小块

## 做法
1. 五花肉冷水下锅，加姜片和料酒焯水，撇去浮沫，捞出洗净。
2. 锅里少油，小火炒冰糖，炒到枣红色冒小泡。
3. 马上倒入肉块翻炒上色。
4. 加生抽、老抽、料酒、葱姜、八角、桂皮，加热水没过肉。
5. 大火烧开，转**小火炖 1 个半小时**。
6. 最后大火收汁，汤汁浓稠挂在肉上就好了。

妈妈说：水一定要一次加够，中途加冷水肉会变柴。`,
  },
  {
    id: 'n014',
    title: 'Budget review — January 2025',
    createdAt: '2025-02-02T05:00:00Z',
    tags: ['finance', 'budget'],
    body: `# Budget review — January 2025

| Category | Budget | Actual |
|---|---|---|
| Rent/mortgage | 2,850 | 2,850 |
| Groceries | 750 | **720** |
| Eating out | 400 | 515 |
| Utilities + internet | 280 | 310 (cold month, heating) |
| Transport (gas, transit) | 200 | 160 |
| Subscriptions | 95 | 95 |
| Fun / hobbies | 300 | 240 |
| Gifts | 100 | 0 |

**Saved: $3,100** (26% of take-home).

Notes: eating out over again, too many lazy weekday takeouts. Try the meal prep Sunday thing.`,
  },
  {
    id: 'n015',
    title: 'TS: the satisfies operator',
    createdAt: '2025-02-03T19:10:00Z',
    tags: ['programming', 'typescript', 'til'],
    body: `# TS: \`satisfies\`

TIL why \`satisfies\` exists. With an annotation, the variable's type *becomes* the annotation and you lose the literal info:

\`\`\`ts
const routes: Record<string, string> = { home: '/', about: '/about' };
routes.nope; // no error, type is just Record<string, string>
\`\`\`

With \`satisfies\` the value is **checked** against the type but keeps its own inferred type:

\`\`\`ts
const routes = { home: '/', about: '/about' } satisfies Record<string, string>;
routes.home;  // ok
routes.nope;  // error!
\`\`\`

Combine with \`as const\` to keep literal string values: \`{...} as const satisfies Config\`.

Use it for config objects, lookup tables, theme tokens.`,
  },
  {
    id: 'n016',
    title: 'Sourdough starter care',
    createdAt: '2025-02-08T18:30:00Z',
    tags: ['baking', 'sourdough'],
    body: `# Starter care ("Bubbles")

- Feeding ratio **1:5:5** (starter:flour:water by weight) when I bake that week, e.g. 20 g starter + 100 g flour + 100 g water
- Peaks in ~6 h at 75°F kitchen; in winter use the oven with the light on
- Not baking? Keep it in the fridge, feed once a week
- Before baking: two room-temp feeds to wake it up
- Hooch (grey liquid) = hungry, pour off and feed
- Discard goes into pancakes or crackers

Float test is unreliable with whole wheat, go by the rise and the smell (yogurty, not acetone).`,
  },
  {
    id: 'n017',
    title: 'Dentist — cracked molar',
    createdAt: '2025-02-11T23:00:00Z',
    tags: ['health', 'dentist'],
    body: `# Dentist — Feb 11

Lower left molar had a crack (that's the pain when chewing on the left).

- Needs a **crown**. Temporary today, permanent one in 2 weeks.
- Cost: $1,480 total, insurance pays 50% after deductible → I pay about **$790**
- Night guard recommended — I grind my teeth (stress, apparently)
- Cleaning every 6 months, next one in August

Avoid sticky food with the temporary crown. No more ice chewing.`,
  },
  {
    id: 'n018',
    title: 'Kubernetes: debugging CrashLoopBackOff',
    createdAt: '2025-02-12T22:10:00Z',
    tags: ['programming', 'kubernetes', 'debugging'],
    body: `# Debugging CrashLoopBackOff

CrashLoopBackOff = the container keeps exiting and the kubelet backs off restarting it (10s, 20s, 40s… up to 5 min).

Steps:
1. \`kubectl describe pod <pod>\` → look at *Last State*, exit code, and Events at the bottom
2. \`kubectl logs <pod> --previous\` → logs of the **previous, crashed** container instance (the current one may have no logs yet)
3. Exit code 1 → app error; 127 → command not found (bad entrypoint); 137 → killed (often OOM, see [[Kubernetes: OOMKilled and memory limits]]); 143 → SIGTERM
4. Still nothing? Override the command to \`sleep infinity\` and \`kubectl exec\` in to poke around

Last time it was a missing env var: the config map key had a typo.`,
  },
  {
    id: 'n019',
    title: 'Kitchen faucet drip fix',
    createdAt: '2025-02-15T22:00:00Z',
    tags: ['home', 'repair', 'plumbing'],
    body: `# Kitchen faucet — fixing the drip

Moen single-handle pull-down (model 7594, bought 2019). Dripping from the spout even when fully off.

## Fix
1. Shut off both valves under the sink, open the faucet to drain
2. Pop off the handle cap, unscrew the handle
3. Remove the retaining clip (needle-nose pliers) — keep it safe, it's tiny
4. Pull the old cartridge out (needed the Moen cartridge puller, $15)
5. Put in the new **Moen 1225 cartridge** (~$30 at Home Depot), hot/cold orientation: tab facing forward
6. Clip, handle, water back on

Took 45 min including a trip to the store. No more drip! Also replaced the O-rings while I was at it.`,
  },
  {
    id: 'n020',
    title: 'Strength log — Feb',
    createdAt: '2025-02-17T03:00:00Z',
    tags: ['fitness', 'strength', 'log'],
    body: `# Strength log — February

Program: 3×/week full body, 5×5 on the main lifts.

| Lift | Feb 3 | Feb 10 | Feb 17 |
|---|---|---|---|
| Squat | 70 kg | 75 kg | 80 kg |
| Bench | 45 kg | 47.5 kg | 47.5 kg (failed last rep) |
| Deadlift | 90 kg (1×5) | 95 kg | 100 kg |
| Row | 40 kg | 42.5 kg | 45 kg |

Notes: squat depth better after filming myself. Bench stalled, deload next week to 42.5. Sleep has been bad and it shows.`,
  },
  {
    id: 'n021',
    title: 'Beacon kickoff',
    createdAt: '2025-02-18T18:00:00Z',
    tags: ['work', 'beacon', 'meeting'],
    body: `# Beacon kickoff — Feb 18

**Attendees:** Omar (lead), Grace (finance), Dev, me

## Goal
Replace the homegrown invoicing system with **Stripe Billing**. The old system can't do usage-based pricing and finance spends 3 days every month-end reconciling by hand.

## In scope
- Subscriptions, invoices, proration
- Sales tax
- Dunning (failed payment retries + emails)
- Migrating ~41k active customers

## Risks
- Proration rules differ from what we do today
- Legacy plans nobody sells anymore
- Webhooks: the old system was synchronous, Stripe is event-driven

## Action items
- [ ] Omar: project plan with milestones
- [ ] Grace: list of finance reports that must keep working
- [ ] Me: map our plan catalog to Stripe products/prices`,
  },
  {
    id: 'n022',
    title: 'Planting calendar (Seattle, zone 8b)',
    createdAt: '2025-02-20T03:00:00Z',
    tags: ['garden', 'planning'],
    body: `# Planting calendar — Seattle, zone 8b

Last frost ~ mid-March, but soil stays cold until May.

| When | What |
|---|---|
| Feb–Mar | Peas direct sow, start onions indoors |
| Mar | Start tomatoes & peppers indoors under lights |
| Apr | Lettuce, spinach, radishes, carrots direct sow; basil indoors |
| **mid-May** | Tomatoes, peppers, squash, beans out |
| Jun | Succession lettuce, cucumbers |
| Aug | Fall greens, kale |

Tomatoes out only when nights stay above 10°C.`,
  },
  {
    id: 'n023',
    title: 'Deep Work — notes',
    createdAt: '2025-02-22T05:30:00Z',
    tags: ['books', 'productivity', 'nonfiction'],
    body: `# Deep Work — Cal Newport

⭐⭐⭐⭐

## Core
Deep work = focused, distraction-free work that pushes your abilities. Shallow work = logistics, email, meetings — easy to replicate, low value.

## Four rules
1. **Work deeply** — pick a philosophy (monastic, bimodal, rhythmic, journalistic). Rhythmic fits me: same 2-hour block every morning.
2. **Embrace boredom** — don't reach for the phone in every idle moment
3. **Quit social media** (or at least audit it)
4. **Drain the shallows** — **time-block every minute of the workday** on paper, re-plan when it goes off track; ask your boss for a shallow work budget

## Trying
- Calendar block 9–11 "focus", Slack closed
- Shutdown ritual at 5:30: review tasks, say "shutdown complete"`,
  },
  {
    id: 'n024',
    title: 'Spaghetti aglio e olio',
    createdAt: '2025-02-26T03:00:00Z',
    tags: ['recipe', 'dinner', 'garlic', 'pasta'],
    body: `# Spaghetti aglio e olio

The 3am pasta. Serves 2.

- 200 g spaghetti
- 5 cloves garlic, **sliced thin** (not minced)
- 1/3 cup good olive oil
- 1/2 tsp red pepper flakes
- parsley, parmesan optional

## Method
1. Pasta in well-salted water, 2 min less than the package says.
2. Meanwhile put the garlic in the oil in a **cold pan**, then low-medium heat. Pull it the moment the edges turn pale gold — it keeps cooking off the heat and burnt garlic makes the whole thing bitter.
3. Add pepper flakes, then a ladle of pasta water. Swirl to emulsify.
4. Pasta into the pan, toss hard 1–2 min, add water until glossy.

Key lesson: starting in cold oil is what keeps it from scorching.`,
  },
  {
    id: 'n025',
    title: 'Taxes 2024 — prep checklist',
    createdAt: '2025-03-01T05:00:00Z',
    tags: ['finance', 'taxes'],
    body: `# Taxes for 2024 — checklist

Filing jointly with Sam this year (married in Oct 2024!).

## Documents
- [x] W-2s (both)
- [x] 1099-INT from the savings account
- [x] 1099-B + 1099-DIV from the brokerage
- [ ] Form 8606 for the backdoor Roth
- [ ] 1098 mortgage interest
- [ ] HSA 5498-SA / 1099-SA
- [ ] Charity receipts (standard deduction probably wins anyway)

## Notes
- Deadline April 15
- Doing it ourselves in FreeTaxUSA again
- ESPP sales: the cost basis on the 1099-B is wrong (doesn't include the discount) — use the supplemental statement`,
  },
  {
    id: 'n026',
    title: 'Anki settings for Japanese',
    createdAt: '2025-03-02T05:00:00Z',
    tags: ['language', 'japanese', 'anki'],
    body: `# Anki setup for Japanese

Deck: Kaishi 1.5k (core vocab) + my own sentence cards from lessons.

## Settings
- **New cards/day: 15** (20 was too many reviews by week 3)
- Maximum reviews/day: 200
- FSRS scheduler on, desired retention 0.9
- Learning steps: 1m 10m
- Leech threshold 8 → suspend and rewrite the card

## Routine
Reviews with morning coffee (habit stacking, see [[Atomic Habits — notes]]). ~20 min/day.

## Progress
- Hiragana + katakana: done (Jan)
- Known vocab after 2 months: ~600 words`,
  },
  {
    id: 'n027',
    title: 'Git: rebase --onto',
    createdAt: '2025-03-03T20:00:00Z',
    tags: ['programming', 'git'],
    body: `# git rebase --onto

Situation: my branch \`feature-b\` was cut from \`feature-a\`, and \`feature-a\` got squash-merged into main. Now rebasing on main replays all of feature-a's commits again.

\`\`\`bash
git rebase --onto main feature-a feature-b
\`\`\`
= take the commits in \`feature-b\` that aren't in \`feature-a\` and replay them on \`main\`.

If \`feature-a\` was deleted, use the old commit: \`git rebase --onto main <sha-of-last-a-commit> feature-b\`.

Other favorites: \`git rebase -i --autosquash\` with \`git commit --fixup <sha>\`, and \`git rerere\` for repeated conflicts.`,
  },
  {
    id: 'n028',
    title: 'Beacon sync — Mar 5',
    createdAt: '2025-03-05T18:00:00Z',
    tags: ['work', 'beacon', 'meeting'],
    body: `# Beacon sync — Mar 5

Attendees: Omar, Grace, Dev, me

## Legacy plans
We have 14 legacy plans with ~2,300 customers. Decision: **grandfather them** until Jan 2026 as their own Stripe prices, then migrate to the nearest current plan with 60 days notice.

## Proration
Stripe prorates by the second; we used to prorate by the day. Grace is OK with Stripe's behavior as long as invoices show the line items clearly.

## Action items
- [ ] Dev: script to create Stripe prices for legacy plans
- [ ] Me: customer mapping table (our id → Stripe customer id)
- [ ] Grace: draft the customer email about legacy plans`,
  },
  {
    id: 'n029',
    title: '1:1 with Leah — Mar 5',
    createdAt: '2025-03-05T22:00:00Z',
    tags: ['work', '1on1'],
    body: `# 1:1 with Leah — Mar 5

## Career
Asked what's missing for staff. Leah's answer:
- Scope beyond my own team — the Harbor project could be that
- More written design docs that other teams actually read and reuse
- **Delegate more**: I still pick up the hard tickets myself instead of pairing someone through them

## Feedback for Leah
Told her sprint planning is too long (90 min). She'll try a 45 min version with async estimates.

## Todo
- [ ] Write the design doc for the itinerary sync layer
- [ ] Pair with Dev on the next tricky Beacon ticket instead of doing it`,
  },
  {
    id: 'n030',
    title: 'Buttermilk pancakes',
    createdAt: '2025-03-09T17:00:00Z',
    tags: ['recipe', 'breakfast'],
    body: `# Buttermilk pancakes

Sunday breakfast, ~10 pancakes.

- 2 cups flour, 2 tbsp sugar, 2 tsp baking powder, 1/2 tsp baking soda, 1/2 tsp salt
- 2 cups buttermilk, 2 eggs, 3 tbsp melted butter

Whisk dry, whisk wet, combine with a few strokes — **lumps are fine**. Rest 10 min while the griddle heats to medium (375°F on the electric one). Flip when bubbles pop and the edges look dry.

No buttermilk? 2 cups milk + 2 tbsp lemon juice, wait 5 min.`,
  },
  {
    id: 'n031',
    title: 'Running log — week of Mar 3',
    createdAt: '2025-03-10T04:00:00Z',
    tags: ['fitness', 'running', 'log'],
    body: `# Running log — week of Mar 3

| Day | Run | Distance | Pace |
|---|---|---|---|
| Tue | easy, Green Lake | 5 km | 6:20/km |
| Thu | easy | 6 km | 6:15/km |
| Sun | long, Burke-Gilman | 10 km | 6:30/km |

**Total: 21 km**

Notes: first week of running consistently since the holidays. Legs heavy on Thursday. Cold, 3°C on Sunday morning, gloves needed. Goal for spring: get back to 30 km/week without anything hurting.`,
  },
  {
    id: 'n032',
    title: 'Atlas kickoff',
    createdAt: '2025-03-10T16:05:00Z',
    tags: ['work', 'atlas', 'meeting'],
    body: `# Atlas kickoff — Mar 10

**Attendees:** Priya (PM), Marcus, Jonas, Elena, me

## Why
The customer mobile apps are two separate native codebases and both are ~2 years behind the web app. Atlas = rebuild in React Native so iOS and Android share one codebase and ship features together.

## Scope for v1
- Trip list, booking flow, itinerary view
- Push notifications for booking changes
- Sign in with Apple / Google
- Dark mode (Jonas really wants it in v1, Priya says "maybe")
- Offline itinerary is **out** for v1

## Timeline (first cut)
- Design freeze: end of May
- Closed beta: September
- Public launch target: **Feb 2, 2026**

## Action items
- [ ] Marcus: spike Expo vs bare React Native, report back in two weeks
- [ ] Jonas: design tokens + component inventory
- [ ] Me: estimate the sync layer and the API changes we need
- [x] Priya: share the PRD in the Atlas folder

Felt like a good start. Big risk is the booking flow — it has the most edge cases and payments are involved.`,
  },
  {
    id: 'n033',
    title: 'Japanese tutor — Yuki',
    createdAt: '2025-03-12T04:00:00Z',
    tags: ['language', 'japanese'],
    body: `# Japanese tutor: Yuki (italki)

- Lessons **Tuesdays 7:00pm PT** (Wednesday noon in Tokyo), 60 min
- $22 per lesson, bought a package of 10
- Textbook: Genki I, chapter per 2 weeks
- She does 15 min free conversation first, then grammar

## Lesson log
- Mar 11: self-introduction, て-form practice
- Mar 18: counting things (〜つ, 〜本, 〜枚) — nightmare
- Mar 25: past tense adjectives, い vs な

Homework: write 5 sentences about my weekend every week.`,
  },
  {
    id: 'n034',
    title: 'V60 pour-over recipe',
    createdAt: '2025-03-14T15:00:00Z',
    tags: ['coffee', 'recipe'],
    body: `# V60 pour-over

My daily recipe, one cup:

- **15 g coffee, 250 g water** (1:16–1:17)
- Grind medium-fine, like table salt (Baratza Encore setting 14)
- Water at **94°C** (just off the boil, wait 30 s)
- Rinse the filter with hot water, dump it

## Pour
1. Bloom: 40 g water, swirl, wait 45 s
2. Pour to 150 g by 1:15
3. Pour to 250 g by 1:45
4. Gentle swirl, drawdown done around 3:00

Too bitter → coarser. Too sour → finer or hotter. Beans from Herkimer, light roast.`,
  },
  {
    id: 'n035',
    title: 'Sourdough country loaf',
    createdAt: '2025-03-16T20:00:00Z',
    tags: ['recipe', 'baking', 'bread', 'sourdough'],
    body: `# Sourdough country loaf

My current recipe after ~15 loaves.

## Dough
- 400 g bread flour + 100 g whole wheat
- 375 g water (75%)
- 100 g active starter
- 10 g salt

## Schedule
- 9:00 mix flour + water (autolyse 1 h)
- 10:00 add starter and salt
- 4 sets of stretch and folds, 30 min apart
- Bulk until ~50% risen (5–6 h at room temp)
- Shape, banneton, **overnight in the fridge** (12–14 h)

## Bake
- Preheat the Dutch oven at **500°F (260°C)** for 45 min
- Score, bake **lid on 20 min at 500°F**
- Lid off, lower to **450°F (230°C)**, 20–25 min until deep brown
- Cool at least 1 h before cutting (hard!)

Internal temp should be ~208°F.`,
  },
  {
    id: 'n036',
    title: 'TS: discriminated unions and exhaustive switches',
    createdAt: '2025-03-18T20:40:00Z',
    tags: ['programming', 'typescript', 'til'],
    body: `# TS: discriminated unions + exhaustive switch

\`\`\`ts
type Shape =
  | { kind: 'circle'; r: number }
  | { kind: 'rect'; w: number; h: number };

function area(s: Shape): number {
  switch (s.kind) {
    case 'circle': return Math.PI * s.r ** 2;
    case 'rect': return s.w * s.h;
    default: {
      const unreachable: never = s;
      throw new Error(\`unhandled shape \${JSON.stringify(unreachable)}\`);
    }
  }
}
\`\`\`

The \`never\` assignment in \`default\` makes the compiler complain as soon as someone adds a new \`kind\` and forgets a case. Alternative: \`satisfies never\` in newer TS.

Lint rule \`@typescript-eslint/switch-exhaustiveness-check\` does the same without the boilerplate.`,
  },
  {
    id: 'n037',
    title: 'Shared expenses with Sam',
    createdAt: '2025-03-20T04:00:00Z',
    tags: ['finance', 'household', 'sam'],
    body: `# Shared expenses with Sam

What we agreed on (again, writing it down this time):

- **Mortgage, utilities, groceries, cat stuff**: split proportionally to income — me 55%, Sam 45%
- **Trips and eating out together**: 50/50 in Splitwise
- Gifts for each other's families: whoever's family pays
- Joint account gets auto-transfers on the 1st: me $2,600, Sam $2,130
- Anything over $300 for the house → talk first
- Settle Splitwise at the end of each month

Review this when either of us changes jobs.`,
  },
  {
    id: 'n038',
    title: 'Sleep experiment',
    createdAt: '2025-03-24T14:00:00Z',
    tags: ['health', 'sleep'],
    body: `# Sleep experiment (4 weeks)

Baseline from the watch: average **6 h 40 min**, lots of waking at 3am.

## Changes
- **No caffeine after 12pm** (was drinking a 3pm latte)
- Same wake-up time every day, 6:45, weekends too
- Phone charges in the hallway
- Bedroom at 18°C
- No work Slack after 8pm

## Result after 4 weeks
- Average **7 h 20 min**
- Fewer 3am wake-ups (2/week vs 5/week)
- The caffeine cutoff made the biggest difference, annoyingly

Keep doing it. Weekends are the hardest.`,
  },
  {
    id: 'n039',
    title: "Lily's 7th birthday — gift ideas",
    createdAt: '2025-03-25T03:00:00Z',
    tags: ['gifts', 'family', 'lily'],
    body: `# Lily turns 7 — Apr 9

Mei says she's into animals, drawing and "anything Frozen but not babyish".

## Ideas
- **Lego Friends** set (the vet clinic one, ~$50)
- Magnetic tiles (she has some, more is always good?)
- **The Wild Robot** book — Mei read it to her and she loved it, get the sequel *The Wild Robot Escapes*
- Art kit with real watercolors, not the kid ones
- Kids' binoculars for birdwatching

## Bought
The Wild Robot Escapes + a watercolor set + a card with a drawing of Miso (she asks about the cat every call).`,
  },
  {
    id: 'n040',
    title: 'Postgres: partial indexes',
    createdAt: '2025-03-26T19:40:00Z',
    tags: ['programming', 'postgres'],
    body: `# Postgres: partial indexes

Soft-deleted rows were 70% of the \`bookings\` table and every query filters them out. Partial index:

\`\`\`sql
CREATE INDEX bookings_user_active_idx
  ON bookings (user_id, created_at DESC)
  WHERE deleted_at IS NULL;
\`\`\`

- Index is ~3× smaller, fits in memory
- The planner only uses it if the query's WHERE **implies** the index predicate — \`deleted_at IS NULL\` must appear literally (or provably)
- Also great for unique constraints on a subset: \`CREATE UNIQUE INDEX ... ON users (email) WHERE deleted_at IS NULL\``,
  },
  {
    id: 'n041',
    title: "Mom's birthday gift",
    createdAt: '2025-03-28T04:00:00Z',
    tags: ['gifts', 'family'],
    body: `# Mom's birthday — Apr 20

Needs to ship to Hangzhou by ~Apr 10 (international shipping is slow).

## Ideas
- Silk scarf — she has many, but she always wears the one from 2019
- A nice **tea set** — hers is chipped
- Hand cream set (L'Occitane) — she loved the one I brought last time
- Digital photo frame that I can load photos to remotely ← she'd see Miso and Sam every day
- Cooking class together over video? cute but logistics

## Decision
**Digital photo frame** (Aura Carver) + hand cream. Preloaded 200 photos, I can add more from my phone.

- [x] Order frame
- [x] Ask Mei to add photos of Lily too`,
  },
  {
    id: 'n042',
    title: 'Rainy Saturday thoughts',
    createdAt: '2025-03-30T04:00:00Z',
    tags: ['journal', 'work'],
    body: `# Mar 29 — rainy Saturday

Rain all day. Did nothing productive and that's fine.

Thinking about what Leah said about delegating. I do grab the hard tickets because it's fun and because I'm faster — but then Dev never gets faster. Two things to try:
- Pair instead of solo on anything gnarly
- When someone asks me a question, ask what they'd try first

Also noticed: the weeks I run 3 times I'm much nicer at work. Correlation, causation, whatever — keep running.

Finished Range. Made me feel better about zigzagging careers.`,
  },
  {
    id: 'n043',
    title: 'Range — notes',
    createdAt: '2025-03-30T04:00:00Z',
    tags: ['books', 'learning', 'nonfiction'],
    body: `# Range — David Epstein

⭐⭐⭐⭐

Argument: generalists who sample widely often beat early specialists in complex fields.

- **Kind learning environments**: clear rules, quick accurate feedback, patterns repeat (chess, golf). Early specialization and deliberate practice work.
- **Wicked learning environments**: rules unclear, feedback delayed or misleading, patterns don't repeat. Experience can even mislead. Breadth and analogical thinking win here.
- "Match quality": trying many things helps find the fit
- Desirable difficulties: spaced, interleaved practice feels worse but sticks better
- Tiger (specialist) vs Roger (generalist) story

Made me feel better about switching from physics to software.`,
  },
  {
    id: 'n044',
    title: 'Beacon sync — Apr 1',
    createdAt: '2025-04-01T18:00:00Z',
    tags: ['work', 'beacon', 'meeting'],
    body: `# Beacon sync — Apr 1

Attendees: Omar, Grace, Dev, me

## Dual-write
Decision: **dual-write to both systems for 30 days** before cutover. Nightly job diffs invoice totals; any diff over $0.01 pages Dev.

## Sales tax: Stripe Tax vs Avalara
Going with **Stripe Tax**:
- One less vendor and contract
- It reads the same customer addresses, no sync job
- Avalara would be ~$18k/yr more at our volume
Grace wants a comparison report for Q2 filings to be safe.

## Action items
- [ ] Dev: diff job + alerting
- [ ] Me: webhook consumer for invoice.* events
- [ ] Omar: pick the cutover window`,
  },
  {
    id: 'n045',
    title: 'Kubernetes: OOMKilled and memory limits',
    createdAt: '2025-04-02T17:45:00Z',
    tags: ['programming', 'kubernetes', 'node'],
    body: `# Kubernetes: OOMKilled and memory limits

The itinerary service pods kept restarting with \`OOMKilled\` (exit 137) during the nightly import.

- Container memory **limit** was 512Mi, but Node's default heap ceiling is based on the machine, not the cgroup (older Node versions), so V8 happily grew past the limit
- Fix: limit raised to 1Gi and \`NODE_OPTIONS=--max-old-space-size=768\` so the heap stays ~75% of the limit and leaves room for buffers/native memory
- Requests vs limits: request = scheduling guarantee, limit = hard cap. For memory we set request == limit to avoid surprises.
- \`kubectl top pod\` to watch usage; \`kubectl get pod -o yaml | grep -A3 lastState\``,
  },
  {
    id: 'n046',
    title: 'Lemon bars',
    createdAt: '2025-04-05T20:30:00Z',
    tags: ['recipe', 'baking', 'dessert'],
    body: `# Lemon bars

From Dana's grandma's card.

**Crust:** 1 cup butter, 1/2 cup sugar, 2 cups flour, pinch of salt. Press into a 9×13, bake 350°F for 20 min until just golden.

**Filling:** 4 eggs, 1.5 cups sugar, 1/4 cup flour, 2/3 cup lemon juice (about 4 lemons), zest of 2.

Pour over the hot crust, bake another 20–22 min until set with a slight wobble. Cool completely, then chill 2 hours. Powdered sugar just before serving, otherwise it melts in.`,
  },
  {
    id: 'n047',
    title: 'Compost notes',
    createdAt: '2025-04-06T21:00:00Z',
    tags: ['garden', 'compost'],
    body: `# Compost

Two-bin system behind the shed.

- **Ratio ~3:1 browns to greens by volume**. Browns: dry leaves, cardboard, straw. Greens: kitchen scraps, coffee grounds, grass clippings.
- Smells bad / slimy → too wet, too many greens → add browns
- Not heating up → too dry or too few greens
- Turn every 2 weeks
- No meat, dairy or oils (rats)
- Ready in ~4 months in summer: dark, crumbly, smells like forest

The city yard waste bin takes the woody stuff.`,
  },
  {
    id: 'n048',
    title: 'Design doc: itinerary sync layer',
    createdAt: '2025-04-08T21:00:00Z',
    tags: ['work', 'atlas', 'design-doc'],
    body: `# Design doc — Atlas itinerary sync layer

**Status:** draft for review by Marcus and Priya

## Problem
The app shows a user's trips; trips change on the server (flight delays, booking edits by support). Today the native apps refetch everything on every open — slow on bad networks and heavy on data.

## Proposal
- Each itinerary has a version number, incremented on any change
- App keeps a local cache in SQLite and sends \`If-None-Match\` with the last ETag → 304 if nothing changed
- Push notification "itinerary changed" carries only the id, app fetches the diff
- Conflict handling: server wins; the app is read-mostly, the only local edit is notes on a trip, merged by last-write-wins per field

## Not doing (v1)
- Full offline editing
- Background sync on Android (battery restrictions)

## Open
- How long to keep cached trips after they end? Suggest 30 days.`,
  },
  {
    id: 'n049',
    title: 'Interview notes — Ana R. (backend)',
    createdAt: '2025-04-09T21:00:00Z',
    tags: ['work', 'hiring', 'interview'],
    body: `# Interview — Ana R., senior backend

Round: system design (me) — designed a rate limiter for the public API.

- Started with requirements, asked about per-user vs per-key limits 👍
- Token bucket in Redis with Lua script for atomicity
- Discussed clock skew and multi-region replication on her own
- Good trade-off talk about fail-open vs fail-closed

Concerns: a bit quiet at first, warmed up fast.

**Recommendation: strong hire.** Would happily work with her.`,
  },
  {
    id: 'n050',
    title: 'Interview notes — Ben K. (backend)',
    createdAt: '2025-04-11T21:00:00Z',
    tags: ['work', 'hiring', 'interview'],
    body: `# Interview — Ben K., senior backend

Round: system design (me) — rate limiter for the public API.

- Jumped straight into code without clarifying requirements
- Fixed window counter, didn't see the burst problem at window edges until prompted
- Good knowledge of Redis, weaker on distributed failure modes
- Friendly, good questions about the team

**Recommendation: no hire** for senior. Could be a fit for a mid-level role.`,
  },
  {
    id: 'n051',
    title: 'Painting the bedroom',
    createdAt: '2025-04-12T23:30:00Z',
    tags: ['home', 'painting'],
    body: `# Painting the bedroom

## Color
After 12 sample patches (!), we went with **Benjamin Moore "Pale Oak" (OC-20)** — warm greige, looks good in the morning and evening light. Ceiling: Chantilly Lace, flat.

## Supplies
- Regal Select, **eggshell** finish, 2 gallons (room is 12×14)
- 9" roller with 3/8" nap, 2" angled brush for cutting in
- Frog tape, drop cloths, spackle

## Notes
- Wash walls first, spackle nail holes, sand
- Two coats, 4 h between
- Total cost ~$190

Done in one weekend. Sam did the cutting in, he's better at it.`,
  },
  {
    id: 'n052',
    title: 'Building the raised beds',
    createdAt: '2025-04-13T23:00:00Z',
    tags: ['garden', 'diy'],
    body: `# Building the raised beds

Two 4×8 beds, 12" tall, untreated cedar (2×6 boards, two rows).

- Corner posts 4×4, screws not nails
- Hardware cloth on the bottom (moles)
- Soil: **60% topsoil, 30% compost, 10% pumice**, from the landscape yard, 1.5 yards delivered, $210
- Lumber ~$240

Bed 1: tomatoes, basil. Bed 2: lettuce, peas, carrots, kale.

Took the whole weekend with Sam. Back sore for two days.`,
  },
  {
    id: 'n053',
    title: 'Packing list template',
    createdAt: '2025-04-15T03:00:00Z',
    tags: ['travel', 'checklist'],
    body: `# Packing list (template)

Copy this for every trip.

## Documents
- [ ] Passport / ID, check expiry
- [ ] Boarding passes, booking confirmations offline
- [ ] Credit card with no foreign transaction fees

## Tech
- [ ] Phone + charger, battery pack
- [ ] Kindle
- [ ] Adapter plugs
- [ ] Headphones

## Clothes
- [ ] Walking shoes (broken in!)
- [ ] Rain jacket
- [ ] Running clothes

## Toiletries
- [ ] Meds, contact lenses, sunscreen

## Before leaving
- [ ] Cat sitter for Miso confirmed
- [ ] Water the plants, take the trash out
- [ ] Thermostat to away mode`,
  },
  {
    id: 'n054',
    title: 'Interview notes — Chloe M. (backend)',
    createdAt: '2025-04-16T21:00:00Z',
    tags: ['work', 'hiring', 'interview'],
    body: `# Interview — Chloe M., senior backend

Round: system design (me) — rate limiter for the public API.

- Solid requirements gathering
- Sliding window log, then moved to sliding window counter for memory
- Hand-waved the multi-region part
- Strong on observability: metrics, what to alert on

**Recommendation: lean hire.** Want to see how the coding round went before deciding; would be fine with her on the team but Ana was clearly stronger.`,
  },
  {
    id: 'n055',
    title: 'Honda — oil change',
    createdAt: '2025-04-18T22:00:00Z',
    tags: ['car', 'maintenance'],
    body: `# Honda Civic — oil change, Apr 18

At Jiffy Lube on Aurora (should've gone to the dealer, oh well).

- Full synthetic **0W-20**, 4.4 quarts
- Odometer: **61,240 miles**
- Cost: $89 with a coupon
- Next oil change at 66,000 or the maintenance minder
- They said the front brake pads are at 3 mm and "should be done soon" — get a second opinion
- Cabin air filter replaced too (it was disgusting)

Tire pressure: 32 psi all round.`,
  },
  {
    id: 'n056',
    title: 'Thinking, Fast and Slow — notes',
    createdAt: '2025-04-20T04:00:00Z',
    tags: ['books', 'psychology', 'nonfiction'],
    body: `# Thinking, Fast and Slow — Daniel Kahneman

⭐⭐⭐⭐ Dense, took me 2 months.

- **System 1**: fast, automatic, intuitive. **System 2**: slow, effortful, lazy — it mostly endorses what System 1 suggests.
- **Anchoring**: an arbitrary number skews estimates (wheel of fortune experiment)
- **Availability heuristic**: we judge frequency by how easily examples come to mind
- **Planning fallacy**: we predict from the best-case scenario of *our* plan and ignore how long similar projects actually took. Fix: **reference class forecasting** — start from the base rate of similar projects, then adjust.
- **Loss aversion**: losses hurt ~2× as much as equal gains
- WYSIATI: "what you see is all there is"

Work takeaway: estimate projects from how long comparable past projects took, not from the task breakdown.`,
  },
  {
    id: 'n057',
    title: 'Harbor kickoff',
    createdAt: '2025-04-22T20:00:00Z',
    tags: ['work', 'harbor', 'meeting'],
    body: `# Harbor kickoff — Apr 22

**Attendees:** Wei (data eng), Tomás (SRE), Anika (analytics), me

## Problem
Analytics queries run against MySQL read replicas. Dashboards time out, replicas lag production by minutes at peak, and window functions / CTEs are painful.

## Plan
- Move the analytics store to **Postgres 16** running on our Kubernetes clusters
- Change data capture (CDC) from production into it
- Dashboards (Metabase) point at the new cluster

## Open questions
- Which operator to run Postgres on Kubernetes?
- Connection pooling
- Backups and point-in-time recovery

## Action items
- [ ] Tomás: compare Postgres operators
- [ ] Wei: inventory of the 40 heaviest dashboard queries
- [ ] Me: CDC options (Debezium vs nightly batch dumps)`,
  },
  {
    id: 'n058',
    title: 'Japanese: は vs が',
    createdAt: '2025-04-24T04:00:00Z',
    tags: ['language', 'japanese', 'mixed-language'],
    body: `# Japanese: は (wa) vs が (ga)

Finally clicking, thanks to Yuki-sensei's explanation.

- **は marks the topic** — "as for X…". Known/old information, contrast.
  - 私は学生です。 *As for me, (I) am a student.*
- **が marks the subject**, often new information or the answer to a question.
  - 誰が来ましたか？ — 田中さんが来ました。 *Who came? — Tanaka came.*
- Question words (誰, 何, どこ) as subject always take が, never は
- Contrast: 肉は食べますが、魚は食べません。 *Meat I eat, but fish I don't.*
- Inside subordinate clauses the subject takes が: 私が作ったケーキ *the cake I made*
- Likes/abilities: 猫が好きです、日本語が分かります

Rule of thumb from Yuki: は answers "what about X?", が answers "who/what?"`,
  },
  {
    id: 'n059',
    title: 'Banana bread',
    createdAt: '2025-04-27T19:00:00Z',
    tags: ['recipe', 'baking'],
    body: `# Banana bread

- 3 very ripe bananas, mashed
- 1/3 cup melted butter
- 3/4 cup brown sugar
- 1 egg, 1 tsp vanilla
- 1 tsp baking soda, pinch of salt
- 1.5 cups flour
- walnuts or chocolate chips

Mix wet, then dry, don't overmix. Loaf pan, **350°F for 55–65 minutes** — toothpick comes out clean. Tent with foil after 40 min if the top browns too fast.

Variation: half whole wheat flour + a spoon of yogurt, still great.`,
  },
  {
    id: 'n060',
    title: 'Lisbon itinerary',
    createdAt: '2025-04-30T04:00:00Z',
    tags: ['travel', 'lisbon', 'portugal'],
    body: `# Lisbon — May 21–27

Staying in an apartment in **Alfama**, Rua de São Miguel, host: Inês. Check-in after 3pm.

## Plan
- **Wed 21**: land 11:40, Metro from the airport, nap, sunset at Miradouro da Senhora do Monte
- **Thu 22**: Alfama + Castelo de São Jorge, tram 28 early before the crowds, fado dinner
- **Fri 23**: Belém — Jerónimos Monastery, the tower, pastéis de Belém (go before 10am)
- **Sat 24**: **day trip to Sintra** — train from Rossio, Pena Palace (timed ticket 10:00), Quinta da Regaleira, bus 434
- **Sun 25**: LX Factory, Time Out Market, Bairro Alto at night
- **Mon 26**: Cascais beach day
- **Tue 27**: fly home 13:05

## Todo
- [x] Pena Palace tickets
- [ ] Download offline maps
- [ ] Viva Viagem card for transit`,
  },
  {
    id: 'n061',
    title: 'Budget review — April 2025',
    createdAt: '2025-05-03T05:00:00Z',
    tags: ['finance', 'budget'],
    body: `# Budget review — April 2025

| Category | Budget | Actual |
|---|---|---|
| Rent/mortgage | 2,850 | 2,850 |
| Groceries | 750 | **865** |
| Eating out | 400 | 330 |
| Utilities + internet | 280 | 245 |
| Transport | 200 | 280 (oil change) |
| Subscriptions | 95 | 95 |
| Fun / hobbies | 300 | 410 (garden supplies, raised bed lumber) |
| Gifts | 100 | 160 (Lily's birthday) |

**Saved: $2,400** (20%).

Notes: groceries high because we cooked at home more — which is why eating out was under. That's a good trade. Garden setup is a one-off.`,
  },
  {
    id: 'n062',
    title: '日记：想家',
    createdAt: '2025-05-04T06:00:00Z',
    tags: ['journal', '中文'],
    body: `# 日记 5 月 4 日

今天下雨，一个人在家整理照片，突然很想家。

翻到小时候和外婆在院子里包粽子的照片。外婆今年 88 岁了，妈妈说她记性越来越差，但还记得我喜欢吃肉粽。

来西雅图已经八年了。工作很顺利，和 Sam 的生活也很好，可是每次视频看到爸妈变老，心里都很难受。

决定：
- 明年春节一定回国
- 每周日固定和爸妈视频
- 学着做妈妈的菜，把味道留下来

晚上做了一碗面，看了一部老电影，心情好一点了。`,
  },
  {
    id: 'n063',
    title: 'Running log — week of Apr 28',
    createdAt: '2025-05-05T04:00:00Z',
    tags: ['fitness', 'running', 'log'],
    body: `# Running log — week of Apr 28

| Day | Run | Distance | Pace |
|---|---|---|---|
| Tue | easy | 7 km | 6:05/km |
| Wed | intervals 6×800 m | 8 km total | 800s at 4:50/km |
| Fri | easy | 5 km | 6:10/km |
| Sun | long | 14 km | 6:12/km |

**Total: 34 km**

Highest week this year. Intervals felt great. Slight tightness in the right knee after the long run, icing it. Thinking about signing up for a fall half marathon.`,
  },
  {
    id: 'n064',
    title: 'TS: nodenext and .js extensions',
    createdAt: '2025-05-06T18:00:00Z',
    tags: ['programming', 'typescript', 'node', 'til'],
    body: `# TS: \`moduleResolution: nodenext\` and \`.js\` extensions

Spent an hour on \`ERR_MODULE_NOT_FOUND\` after switching a package to \`"type": "module"\`.

- Node's ESM loader does **not** guess file extensions. \`import './util'\` fails at runtime.
- With \`module\`/\`moduleResolution\` set to \`nodenext\`, TypeScript enforces this: relative imports must be written as \`./util.js\` even though the file on disk is \`util.ts\`. TS maps \`.js\` → \`.ts\` when type-checking; the emitted JS is then correct as-is.
- \`moduleResolution: bundler\` allows extensionless imports, but only use it if a bundler (Vite, esbuild) actually runs the code.
- \`allowImportingTsExtensions\` lets you write \`.ts\` but requires \`noEmit\`.

Rule of thumb: library or plain Node → nodenext + \`.js\`; app behind Vite → bundler.`,
  },
  {
    id: 'n065',
    title: 'Harbor design doc: getting data out of production',
    createdAt: '2025-05-08T21:00:00Z',
    tags: ['work', 'harbor', 'design-doc'],
    body: `# Harbor design doc — change data capture

**Author:** me · **Reviewers:** Wei, Tomás, Omar · **Status:** approved May 14

## Context
Harbor needs a near-real-time copy of ~60 production tables (bookings, customers, payments, itineraries) in the new analytics Postgres. Today the dashboards read MySQL replicas directly. Production stays on MySQL for now, so this is a cross-engine pipeline.

## Options
1. **Nightly batch dumps** — simple, but data is up to 24 h stale. Analysts said no.
2. **Debezium + Kafka Connect** — reads the MySQL binlog, publishes row changes to Kafka topics, a JDBC sink writes into Postgres. Mature, handles schema changes, but adds Kafka Connect to operate.
3. **Custom binlog reader in Node** — cheapest to start, expensive forever.

## Decision
Option 2, **Debezium**. We already run Kafka for events, so the marginal cost is Kafka Connect workers (2 pods). Expected lag: seconds.

## Details
- Snapshot mode \`initial\` for the first load, then streaming
- Topics per table, 7-day retention, compacted for the customer table
- Sink uses upserts on primary key; deletes become tombstones → hard delete in Postgres
- PII columns (email, phone) hashed in a Single Message Transform before they leave production
- Schema changes: additive only without review; anything else needs a Harbor ticket

## Risks
- Big backfills can saturate the binlog reader → run them at night
- MySQL binlog retention must be ≥ 3 days so a stuck connector can recover

## Open questions
- Do we need exactly-once? Probably not, upserts make replays harmless.
- Who owns the connector configs long term? Proposal: data eng (Wei), with SRE on call for the infra.`,
  },
  {
    id: 'n066',
    title: 'Lisbon food list',
    createdAt: '2025-05-10T03:30:00Z',
    tags: ['travel', 'lisbon', 'food'],
    body: `# Lisbon — where to eat

From Raj, Reddit and a food blog:

- **Taberna da Rua das Flores** — no reservations, go at 6:30pm
- **Cervejaria Ramiro** — seafood, garlic prawns, finish with a prego (steak sandwich) for dessert, locals swear by it
- **Pastéis de Belém** — the original custard tarts
- **Manteigaria** — Sam says their pastel de nata is better
- **A Cevicheria** — long line, worth it?
- Bifana at **O Trevo**, cheap and fast
- Ginjinha shot at **A Ginjinha** near Rossio

Try: bacalhau à brás, grilled sardines (it's almost sardine season), vinho verde.`,
  },
  {
    id: 'n067',
    title: 'Week of May 12',
    createdAt: '2025-05-12T15:00:00Z',
    tags: ['work', 'planning'],
    body: `# Week of May 12

## Top 3
1. Beacon: webhook consumer for invoice events
2. Harbor: first Cluster manifest in staging
3. Atlas: API contract review with Marcus

## Todo
- [x] Interview debrief for the backend role
- [ ] Update the team wiki on deploys
- [ ] Ask Tomás about the staging cluster quota
- [ ] Lisbon trip: print boarding passes

## Notes
Out Thursday–Friday next week for Lisbon. Hand off on-call to Dev.`,
  },
  {
    id: 'n068',
    title: 'Beacon sync — May 13',
    createdAt: '2025-05-13T18:00:00Z',
    tags: ['work', 'beacon', 'meeting'],
    body: `# Beacon sync — May 13

Attendees: Omar, Grace, Dev, Tomás, me

## Cutover window
**Cutover on Saturday June 14.** Why a Saturday:
- Lowest checkout traffic of the week (~30% of a weekday)
- Finance closes the books on the 1st, so mid-month is safest
- Tomás can be on call without a release train conflicting

## Rollback plan
- Old system stays read-only for two weeks
- Feature flag routes new subscriptions back to the old system if needed
- Rollback decision owner: Omar

## Action items
- [ ] Tomás: runbook + comms channel
- [ ] Me: dry run on staging with a copy of production data
- [ ] Grace: tell support about the timing`,
  },
  {
    id: 'n069',
    title: 'Bash snippets I keep looking up',
    createdAt: '2025-05-15T17:30:00Z',
    tags: ['programming', 'bash', 'cheatsheet'],
    body: `# Bash snippets

\`\`\`bash
set -euo pipefail        # top of every script
IFS=$'\\n\\t'

# loop over files with spaces safely
find . -name '*.log' -print0 | xargs -0 rm

# default value
name="\${1:-world}"

# retry a command 5 times
for i in {1..5}; do curl -fsS "$url" && break || sleep $((i*2)); done

# run on exit
trap 'rm -rf "$tmp"' EXIT
\`\`\`

\`shellcheck\` in CI catches most of my mistakes.`,
  },
  {
    id: 'n070',
    title: 'Dishwasher not draining',
    createdAt: '2025-05-18T21:00:00Z',
    tags: ['home', 'repair', 'appliances'],
    body: `# Dishwasher not draining (Bosch)

Standing water at the bottom after every cycle, error E24.

Checked in this order:
1. **Filter** — twist out the cylindrical filter at the bottom. It was gross: rice, a piece of a label, grease. Cleaned with a brush + hot soapy water. ← this was most of it
2. Drain pump cover: spoon trick to pop it off, found a small glass shard stuck in the impeller
3. Drain hose kinks under the sink — fine
4. Garbage disposal knockout plug — not relevant, it's been working for years

Ran an empty cycle with a cup of vinegar. Drains perfectly now. Clean the filter **every month**.`,
  },
  {
    id: 'n071',
    title: 'Harbor: choosing a Postgres operator',
    createdAt: '2025-05-20T20:00:00Z',
    tags: ['work', 'harbor', 'meeting', 'decision'],
    body: `# Harbor: choosing a Postgres operator

Tomás compared three operators:

| | CloudNativePG | Crunchy PGO | Zalando |
|---|---|---|---|
| Backups | Barman to S3, declarative | pgBackRest | WAL-G |
| Failover | built in, no Patroni | Patroni | Patroni |
| Community | CNCF sandbox, very active | company-driven | slower lately |

**Decision: CloudNativePG.**
- No Patroni/etcd layer, failover is done by the operator itself
- Backups and scheduled backups are plain CRDs, fits our GitOps setup
- Good docs, active Slack

Crunchy was close; we'd reconsider if we needed their support contract.

- [ ] Tomás: install in the staging cluster
- [ ] Me: first \`Cluster\` manifest with 3 instances`,
  },
  {
    id: 'n072',
    title: 'Aphids on the roses',
    createdAt: '2025-05-25T19:00:00Z',
    tags: ['garden', 'pests', 'roses'],
    body: `# Aphids on the roses

Green aphids all over the new growth on the climbing rose.

What worked:
1. **Blast them off with the hose** every couple of days
2. **Insecticidal soap** spray (Safer brand) in the evening, coating the undersides of leaves. Not in full sun, it burns the leaves.
3. Bought 1,500 **ladybugs**, released at dusk after misting the plants — most flew off by day 3, but some stayed

Also: ants farm aphids, so a sticky band on the stem helps. Go easy on nitrogen fertilizer, soft new growth attracts them.

Gone after about 2 weeks.`,
  },
  {
    id: 'n073',
    title: 'Project Hail Mary — thoughts',
    createdAt: '2025-05-26T21:00:00Z',
    tags: ['books', 'sci-fi', 'fiction'],
    body: `# Project Hail Mary — Andy Weir

⭐⭐⭐⭐⭐ Read it on the flight to Lisbon and by the pool in Cascais.

Loved it. Funniest and most heartfelt of his books. Ryland Grace waking up with amnesia on a spaceship, and **Rocky** — the engineer spider friend who talks in musical chords — is one of the best characters I've read in years. "Fist my bump." Amaze amaze amaze.

The science puzzles are the fun part, like The Martian, but the friendship makes it. Ending made me tear up a bit on the plane.

Recommended to Dana and Sam. Sam started it immediately.`,
  },
  {
    id: 'n074',
    title: 'Postgres: indexing jsonb',
    createdAt: '2025-05-28T20:10:00Z',
    tags: ['programming', 'postgres'],
    body: `# Postgres: indexing jsonb

Queries like \`WHERE metadata @> '{"source": "ios"}'\` were doing seq scans.

\`\`\`sql
CREATE INDEX events_metadata_gin ON events USING GIN (metadata jsonb_path_ops);
\`\`\`

- **GIN** is the index type for containment (\`@>\`), key-exists (\`?\`), and jsonpath (\`@@\`, \`@?\`)
- \`jsonb_path_ops\` is smaller and faster for \`@>\` but doesn't support \`?\` key-exists
- Default \`jsonb_ops\` supports everything, bigger
- If you always query one key, an expression B-tree index is better: \`CREATE INDEX ON events ((metadata->>'source'))\``,
  },
  {
    id: 'n075',
    title: 'Lisbon trip expenses',
    createdAt: '2025-05-30T02:00:00Z',
    tags: ['travel', 'lisbon', 'finance'],
    body: `# Lisbon trip — what it cost (2 people, 6 nights)

| Item | USD |
|---|---|
| Flights SEA–LIS (2×) | 1,640 |
| Apartment in Alfama, 6 nights | 910 |
| Food & drinks | 780 |
| Transit, trains, Uber | 140 |
| Pena Palace + Regaleira + Jerónimos | 120 |
| Souvenirs (tiles, cork, tinned fish) | 95 |
| **Total** | **3,685** |

Split 50/50 with Sam → $1,842.50 each, settled in Splitwise.

Came in under the $4,000 we planned. Food was the best value of any trip we've done.`,
  },
  {
    id: 'n076',
    title: 'Thai green curry',
    createdAt: '2025-05-30T02:10:00Z',
    tags: ['recipe', 'dinner', 'thai'],
    body: `# Thai green curry

- 1 can (400 ml) coconut milk — don't shake it, you want the cream on top
- 3 tbsp green curry paste (Mae Ploy, it's spicy!)
- 500 g chicken thigh, sliced
- 1 cup bamboo shoots, Thai eggplant or zucchini
- 1 tbsp fish sauce, 1 tsp palm sugar
- Thai basil, kaffir lime leaves

1. Fry the thick coconut cream until the oil splits, add paste, fry 2 min until fragrant.
2. Chicken in, coat, then the rest of the coconut milk + 1/2 cup water.
3. Veg, lime leaves, simmer 10 min.
4. Season with fish sauce and sugar, basil at the end.

Jasmine rice. Next time: half the paste for Sam.`,
  },
  {
    id: 'n077',
    title: 'Movie watchlist',
    createdAt: '2025-06-01T05:00:00Z',
    tags: ['movies', 'list'],
    body: `# Movie watchlist

## To watch
- [ ] Perfect Days (Wim Wenders, Tokyo toilets, supposedly beautiful)
- [ ] Past Lives — Sam has seen it twice
- [ ] The Zone of Interest
- [ ] Drive My Car
- [ ] In the Mood for Love (rewatch)
- [ ] Dune: Part Two on a big screen if it comes back
- [ ] Spirited Away at the Ghibli fest

## Watched
- [x] Everything Everywhere All at Once — 10/10, cried at the rocks scene
- [x] Oppenheimer — too long, great sound
- [x] Anatomy of a Fall — the dog!`,
  },
  {
    id: 'n078',
    title: 'Atlas sync — Jun 2',
    createdAt: '2025-06-02T16:30:00Z',
    tags: ['work', 'atlas', 'meeting'],
    body: `# Atlas sync — Jun 2

Attendees: Priya, Marcus, Jonas, Elena, me

## Updates
- Marcus finished the Expo spike. **Decision: Expo with a custom dev client**, not bare React Native. EAS Build saves us from maintaining two CI pipelines, and the dev client lets us keep the one native module we need (the maps SDK).
- Design freeze slipped two weeks to **mid-June** — Jonas still iterating on the booking flow.
- Elena drafted the device matrix: iPhone 12–16, Pixel 6–9, Samsung A54.

## Discussion
Marcus worried about OTA updates bypassing review. We agreed OTA is only for JS bug fixes, never for new features.

## Action items
- [ ] Me: write the API contract doc for itinerary endpoints
- [ ] Jonas: finish booking flow screens by Jun 16
- [ ] Elena: set up Detox smoke tests`,
  },
  {
    id: 'n079',
    title: '1:1 with Leah — Jun 4',
    createdAt: '2025-06-04T22:00:00Z',
    tags: ['work', '1on1'],
    body: `# 1:1 with Leah — Jun 4

- Beacon cutover prep looks good, she'll be around that Saturday
- **Conference budget approved**: DevWorld Berlin in September, $2,500 covering flight, hotel and ticket. Need to write a short trip report afterwards for the team.
- She asked me to mentor Ana once she starts (new backend hire)
- Mentioned the staff promo calibration happens in December; she wants a draft packet by November

## Todo
- [ ] Book Berlin flights before prices go up
- [ ] Outline promo packet`,
  },
  {
    id: 'n080',
    title: 'Beacon status update — Jun 6',
    createdAt: '2025-06-06T22:00:00Z',
    tags: ['work', 'beacon', 'status'],
    body: `# Beacon weekly status — Jun 6

To: Leah, Omar, Grace, support leads

**Overall: 🟢 on track for cutover next Saturday.**

## This week
- Dual-write running for 26 days, diff job clean for 9 days straight
- Staging dry run with production data: 41k customers migrated in 52 minutes
- Support macros drafted for "my invoice looks different"

## Next week
- Go/no-go meeting Thursday 2pm
- Freeze on billing-related deploys from Wednesday
- Customer email about the new invoice PDF format goes out Monday

## Risks
- Webhook throughput under real load is untested beyond 2× normal (yellow)`,
  },
  {
    id: 'n081',
    title: 'Re-caulking the bathtub',
    createdAt: '2025-06-07T23:00:00Z',
    tags: ['home', 'repair', 'bathroom'],
    body: `# Re-caulking the bathtub

Old caulk was moldy and peeling.

1. Cut out the old caulk with a utility knife + caulk removal tool
2. Wipe with mineral spirits, then isopropyl alcohol, let dry overnight (fans on)
3. Painter's tape on both sides of the joint
4. **100% silicone** (GE Silicone 2, white, kitchen & bath) — not acrylic, it doesn't hold up in a shower
5. **Fill the tub with water first** so the joint is at its widest when the caulk cures
6. Smooth with a wet finger / tool, pull tape immediately
7. **Cure 24 h** before using the shower

Looks brand new. One tube was plenty.`,
  },
  {
    id: 'n082',
    title: 'Kubernetes: liveness vs readiness probes',
    createdAt: '2025-06-10T18:20:00Z',
    tags: ['programming', 'kubernetes'],
    body: `# Liveness vs readiness vs startup probes

- **Readiness**: "can I receive traffic right now?" Failing removes the pod from Service endpoints, no restart.
- **Liveness**: "am I stuck beyond repair?" Failing → container restarted.
- **Startup**: holds off the other probes until slow boot is done.

Rules we adopted:
- Liveness must **not** check dependencies (database, Redis). If Postgres blips, every pod restarts at once and makes it worse. Liveness = the process responds to a cheap \`/livez\`.
- Readiness may check critical dependencies, with a short timeout
- Give liveness a generous \`failureThreshold\` (e.g. 3 × 10s)`,
  },
  {
    id: 'n083',
    title: 'Annual physical — bloodwork results',
    createdAt: '2025-06-10T20:00:00Z',
    tags: ['health', 'doctor'],
    body: `# Annual physical — June 10

Dr. Patel. Results came back on the portal two days later.

| Test | Result | Range |
|---|---|---|
| LDL cholesterol | **142 mg/dL** | < 100 |
| HDL | 58 | > 40 |
| Triglycerides | 110 | < 150 |
| Fasting glucose | 91 | 70–99 |
| **Vitamin D** | **18 ng/mL** (low) | 30–100 |
| TSH | normal | |

## Plan
- Vitamin D3 **2,000 IU daily**, retest in 3 months
- LDL: more fiber (oats, beans), fewer pastries, recheck in 6 months before talking about statins. Family history on Dad's side.
- Blood pressure 118/76, fine`,
  },
  {
    id: 'n084',
    title: 'Beacon cutover log — Jun 14',
    createdAt: '2025-06-14T21:40:00Z',
    tags: ['work', 'beacon', 'incident'],
    body: `# Beacon cutover log — Jun 14

- 06:00 freeze old invoicing writes
- 06:20 final customer + subscription sync, 41,212 customers
- 07:05 flipped the feature flag, new subscriptions go to Stripe
- 09:30 first real invoices generated, totals match the diff job
- 13:10 support reports customers with **two invoices** for the same period
- 13:45 found it: Stripe retried \`invoice.paid\` webhooks because our handler timed out (>10s under load), and the handler isn't idempotent, so each retry created another internal invoice record and sent another email
- 14:30 hotfix: dedupe on the Stripe event id before processing
- 16:00 cleanup script voided 312 duplicate invoices
- 18:00 stable, going home

Postmortem next week.`,
  },
  {
    id: 'n085',
    title: 'Designing Data-Intensive Applications — notes',
    createdAt: '2025-06-15T04:00:00Z',
    tags: ['books', 'programming', 'databases'],
    body: `# DDIA — Martin Kleppmann (ch. 5–7)

Re-reading for Harbor.

## Replication
- Leader/follower; async replication → **replication lag**
- **Read-your-writes consistency**: after a user writes something, they should always see their own update on later reads. Techniques: read the user's own data from the leader, or track the write timestamp and only read from replicas caught up past it
- Monotonic reads: don't let a user see time go backwards (stick them to one replica)
- Consistent prefix reads

## Partitioning
- Hash vs range partitioning, hot spots
- Secondary indexes: local (scatter/gather) vs global

## Transactions
- Read committed vs snapshot isolation; write skew needs serializable`,
  },
  {
    id: 'n086',
    title: 'The day after the cutover',
    createdAt: '2025-06-15T18:00:00Z',
    tags: ['journal', 'work'],
    body: `# Jun 15 — the day after the cutover

Slept 10 hours. Yesterday was a 14-hour day — the Stripe cutover went mostly fine but then a messy afternoon with customers getting double invoice emails. Fixed by the evening, proper writeup next week.

Proud of how calmly the team handled it. Omar was great, nobody panicked, Grace had support messaging ready within an hour.

Today: farmer's market, nap, watched two episodes of The Bear. Sam made lemon bars. No laptop.`,
  },
  {
    id: 'n087',
    title: 'Half marathon training plan',
    createdAt: '2025-06-16T04:00:00Z',
    tags: ['fitness', 'running', 'plan'],
    body: `# Half marathon training plan

**Race: Victoria Half Marathon, Oct 12, 2025**
**Goal: under 1:55** (≈ 5:27/km). Stretch goal 1:50.

16 weeks, starting Jun 16. 4 runs/week.

| Phase | Weeks | Long run | Weekly km |
|---|---|---|---|
| Base | 1–4 | 12 → 18 km | 30–42 |
| Build | 5–10 | 16 → 20 km | 35–46 |
| Peak | 11–13 | 20 km | 46 |
| Taper | 14–16 | 14 → 10 km | 30 → 20 |

- One quality session per week: tempo, intervals, or race pace
- Every 4th week is a cutback week
- Strength 2×/week: squats, lunges, calf raises
- Fuel: a gel every 40 min on runs > 15 km`,
  },
  {
    id: 'n088',
    title: 'Beacon postmortem: duplicate invoices',
    createdAt: '2025-06-20T17:00:00Z',
    tags: ['work', 'beacon', 'incident', 'postmortem'],
    body: `# Postmortem: duplicate invoices after the Stripe cutover

**Impact:** 312 customers got a second invoice email for June; no double charges (Stripe charged once), but lots of support tickets.

## Root cause
Our webhook handler for \`invoice.paid\` did the slow work (PDF rendering, email) inline. Under cutover load it took >10s, Stripe considered the delivery failed and retried. The handler had **no idempotency check**, so every retry created a new invoice record and email.

## What went well
- Support escalated within 3 hours
- Rollback plan existed (didn't need it)

## Action items
- [x] Store processed Stripe event ids, skip duplicates
- [ ] Ack webhooks immediately, do the work in a queue
- [ ] Load test webhook handlers with retry storms
- [ ] Apology email template reviewed by Grace`,
  },
  {
    id: 'n089',
    title: 'Overnight focaccia',
    createdAt: '2025-06-21T22:00:00Z',
    tags: ['recipe', 'baking', 'bread'],
    body: `# Overnight focaccia

Easiest bread ever, no kneading. Instant yeast, not sourdough.

- 500 g bread flour, 400 g water, 10 g salt, 4 g instant yeast
- lots of olive oil
- flaky salt, rosemary, cherry tomatoes or olives

1. Mix everything in a big bowl, shaggy is fine. Cover, fridge overnight (12–24 h).
2. Pour 1/4 cup oil into a 9×13 pan, tip the dough in, let it relax 3–4 h at room temp until bubbly.
3. Oil your fingers, dimple all the way to the bottom. Toppings.
4. Bake at **425°F for 25–30 minutes** until golden.

Brought it to the team offsite, gone in 10 minutes.`,
  },
  {
    id: 'n090',
    title: 'TS: zod inference notes',
    createdAt: '2025-06-23T19:30:00Z',
    tags: ['programming', 'typescript', 'zod'],
    body: `# zod: inferring types

\`\`\`ts
const User = z.object({
  name: z.string(),
  age: z.coerce.number(),
  role: z.enum(['admin', 'member']).default('member'),
});
type User = z.infer<typeof User>;
\`\`\`

- \`z.infer\` = \`z.output\`: the type **after** parsing (defaults applied, transforms run)
- \`z.input<typeof User>\` is what you may pass **in**: here \`role\` is optional and \`age\` is \`unknown\` because of coerce
- Use \`z.input\` for form values / request bodies before validation, \`z.output\` for what the handler receives
- \`.transform()\` changes the output type, so input ≠ output

Gotcha: \`.default()\` makes the key optional on input but required on output.`,
  },
  {
    id: 'n091',
    title: 'Subscription audit',
    createdAt: '2025-06-28T20:00:00Z',
    tags: ['finance', 'subscriptions'],
    body: `# Subscription audit — June

Was paying $94/month in subscriptions. Went through the card statement.

## Kept
- Spotify Duo $16.99
- iCloud 200 GB $2.99
- NYT $4 (promo, watch the renewal)
- Netflix $15.49
- Noted Pro, $8 — I live in this app

## Cancelled
- ~~Hulu~~ — haven't opened it since March
- ~~Audible~~ — library app (Libby) is free
- ~~Peloton app~~ — I run outside
- ~~Adobe Lightroom~~ — used twice
- ~~Duolingo Super~~ — free tier is enough with Anki

New total: ~$47/month. Calendar reminder to do this again in January.`,
  },
  {
    id: 'n092',
    title: '《三体》读书笔记',
    createdAt: '2025-06-29T04:30:00Z',
    tags: ['books', '中文', 'sci-fi'],
    body: `# 《三体》三部曲 读书笔记

终于读完了中文原版，比英文版更有味道。

## 印象最深的概念
- **黑暗森林法则**：宇宙就是一座黑暗森林，每个文明都是带枪的猎人。因为猜疑链和技术爆炸，任何文明一旦暴露位置，就可能被别的文明消灭。所以最好的策略是隐藏自己，发现别人就先开枪。
- **猜疑链**：文明之间无法确认对方是善意还是恶意。
- **面壁计划**：罗辑的设定很妙。
- 降维打击：《死神永生》里太震撼了。

## 人物
最喜欢罗辑和章北海。程心的选择让人很纠结。

## 想法
第一部有点慢，第二部最好看。想推荐给 Raj，他只看过 Netflix 版。`,
  },
  {
    id: 'n093',
    title: 'Basil care',
    createdAt: '2025-06-30T01:00:00Z',
    tags: ['garden', 'herbs'],
    body: `# Basil

Grew Genovese from seed (started indoors Apr 10), 6 plants in the raised bed next to the tomatoes.

- **Pinch off flower buds** as soon as they appear, otherwise the leaves get bitter and the plant stops growing
- Harvest from the top, cut just above a pair of leaves → it branches into two
- Likes heat, hates cold nights below 10°C
- Water at the base

Made pesto twice already. Freeze pesto in ice cube trays without the cheese.`,
  },
  {
    id: 'n094',
    title: 'Kimchi fried rice',
    createdAt: '2025-07-02T02:00:00Z',
    tags: ['recipe', 'dinner', 'korean', 'leftovers'],
    body: `# Kimchi fried rice

Best with day-old rice and sour, old kimchi.

- 2 cups cold cooked rice
- 1 cup kimchi chopped + 2 tbsp of its juice
- 2 slices bacon or spam, diced
- 1 tbsp gochujang, 1 tsp sesame oil
- 2 eggs, scallions, nori

Render bacon, add kimchi and fry 3 min until it caramelizes. Rice + kimchi juice + gochujang, press it into the pan and let it crisp. Sesame oil at the end. Top with a fried egg (runny!).

10-minute dinner when the fridge is empty.`,
  },
  {
    id: 'n095',
    title: 'Four Thousand Weeks — notes',
    createdAt: '2025-07-06T04:30:00Z',
    tags: ['books', 'productivity', 'philosophy'],
    body: `# Four Thousand Weeks — Oliver Burkeman

⭐⭐⭐⭐⭐ Changed how I think about productivity.

- The average life is ~4,000 weeks. You will never get everything done — **the to-do list is infinite by nature**, and accepting that is a relief, not a defeat.
- Efficiency traps: the faster you clear email, the more email you get
- Choose what to neglect, on purpose
- **Limit work in progress**: fixed volume of tasks (max 10 open), only add when one finishes
- Patience as a superpower; don't rush things that take time
- "Cosmic insignificance therapy" — nobody is keeping score

Quote I wrote on a sticky note: *"The day will never arrive when you finally have everything under control."*`,
  },
  {
    id: 'n096',
    title: 'Mentoring plan for Ana',
    createdAt: '2025-07-08T20:00:00Z',
    tags: ['work', 'mentoring'],
    body: `# Mentoring Ana — first 90 days

## Goals she set
- Ship something user-facing in month 1
- Own a service by month 3 (itinerary service?)
- Get comfortable with on-call

## Plan
- Weekly 30 min 1:1, Thursdays
- First tickets: ETag follow-ups in the itinerary API (small, real, reviewed by me)
- Shadow my on-call week in September, then reverse-shadow
- Read: our Harbor design doc, DDIA ch. 5

## Notes
- Jul 3: strong on distributed systems, new to our deploy tooling
- Jul 10: shipped first PR, asked great questions in review`,
  },
  {
    id: 'n097',
    title: 'Git: bisect to find a regression',
    createdAt: '2025-07-08T21:20:00Z',
    tags: ['programming', 'git', 'debugging'],
    body: `# git bisect

Found which commit broke the currency formatting in 6 steps out of ~80 commits:

\`\`\`bash
git bisect start
git bisect bad                 # current HEAD is broken
git bisect good v2.14.0        # this tag was fine
# test, then mark: git bisect good / git bisect bad
git bisect reset
\`\`\`

Automate it: \`git bisect run npm test -- currency.test.ts\` — exit code 0 = good, 1–127 = bad, 125 = skip.

The culprit was a locale change in a dependency bump. Binary search is magic.`,
  },
  {
    id: 'n098',
    title: 'New laptop',
    createdAt: '2025-07-10T02:00:00Z',
    tags: ['tech', 'purchase'],
    body: `# New personal laptop

The 2017 MacBook Pro's battery is done (2 h max) and it can't run the latest macOS.

Options compared:
- MacBook Air 13" M4 — $999, 16 GB
- **MacBook Air 15" M4, 24 GB, 512 GB** — $1,499
- Framework 13 — fun, but I'd miss the battery life

**Bought the 15" Air**, midnight color (fingerprints, I know). Education discount via Sam, saved $100 → $1,399.

Migrated with Migration Assistant, everything worked except the old Homebrew install. Reinstalled brew for Apple silicon.

Old laptop: wipe and give to Lily's school program.`,
  },
  {
    id: 'n099',
    title: 'Running log — week of Jul 7',
    createdAt: '2025-07-14T04:00:00Z',
    tags: ['fitness', 'running', 'log'],
    body: `# Running log — week of Jul 7

| Day | Run | Distance | Pace |
|---|---|---|---|
| Tue | easy | 8 km | 6:00/km |
| Wed | tempo 3×2 km | 10 km total | tempo at 5:05/km |
| Fri | easy | 6 km | 6:05/km |
| Sat | **long run, 18 km** | 18 km | **5:48/km** avg, 1:44:24 |

**Total: 42 km** — training plan week 4.

Long run along the Burke-Gilman to Kenmore and back. Hot (27°C), carried 1 L water and two gels (km 7 and 13). Knee sore on stairs afterwards → physio booked.`,
  },
  {
    id: 'n100',
    title: 'Atlas sync — Jul 14',
    createdAt: '2025-07-14T16:30:00Z',
    tags: ['work', 'atlas', 'meeting'],
    body: `# Atlas sync — Jul 14

Attendees: Priya, Marcus, Jonas, me (Elena out)

## Push notifications
Compared OneSignal vs sending through FCM/APNs ourselves. Going with **direct FCM + APNs** via our notification service — we already run it for email and OneSignal's pricing scales badly with our MAU.

## API contract
- Itinerary endpoint returns segments sorted by start time, server does the timezone math
- Pagination is cursor-based, page size 25
- Marcus wants ETags so the app can cheaply revalidate

## Misc
- Design freeze finally happened Jun 20
- Priya asked for a rough beta list by mid-August

## Action items
- [ ] Me: add ETag support to the itinerary endpoint
- [ ] Marcus: notification permission prompt after first booking, not on launch
- [ ] Priya: beta recruiting plan`,
  },
  {
    id: 'n101',
    title: 'Harbor sync — Jul 15',
    createdAt: '2025-07-15T20:00:00Z',
    tags: ['work', 'harbor', 'meeting'],
    body: `# Harbor sync — Jul 15

Attendees: Wei, Tomás, Anika, me

## Connection pooling
Running **PgBouncer in transaction mode** in front of the cluster. Metabase was fine, but our Node ETL broke: it uses named prepared statements, which don't survive across transactions in transaction pooling. Fix: disabled prepared statements in the ETL's driver config. PgBouncer 1.21+ supports protocol-level prepared statements, we'll try that later.

## Backups
- Continuous WAL archiving to S3 plus a nightly base backup
- **Retention: 14 days**, so point-in-time recovery to any moment in the last two weeks
- Restore drill once a month (Tomás)

## Action items
- [ ] Wei: migrate the top 10 dashboards
- [ ] Tomás: alert when the last successful WAL archive is older than 15 min`,
  },
  {
    id: 'n102',
    title: "Sam's parents visiting",
    createdAt: '2025-07-16T04:00:00Z',
    tags: ['family', 'sam', 'planning'],
    body: `# Sam's parents visiting — Jul 18–22

Linda and Paul, flying in from Denver.

## Plan
- Fri: pick up at SeaTac 4:10pm, dinner at home (roast chicken, they like simple)
- Sat: Pike Place early, ferry to Bainbridge, lunch there
- Sun: Mt Rainier, Paradise visitor center, Skyline trail (short version for Paul's hip)
- Mon: they explore alone, we work
- Tue: airport 10am

## Prep
- [ ] Guest room: fresh sheets, clear the desk
- [ ] Rainier park pass
- [ ] Ask about food allergies again (Linda: shellfish!)
- [ ] Miso stays out of the guest room (Paul's allergic)`,
  },
  {
    id: 'n103',
    title: 'Camping: Olympic National Park',
    createdAt: '2025-07-20T23:00:00Z',
    tags: ['travel', 'camping', 'outdoors'],
    body: `# Camping — Olympic NP, Aug 1–3

Site: **Kalaloch Campground**, site B-14 (booked on recreation.gov). Ocean view!

## Plan
- Fri: drive via Aberdeen (4h), set up, beach sunset
- Sat: Hoh Rain Forest, Hall of Mosses + Spruce Nature trail, Ruby Beach at low tide (check tide table)
- Sun: Lake Crescent swim, drive home via the ferry

## Gear checklist
- [ ] Tent + footprint, sleeping bags, pads
- [ ] Stove, fuel, lighter, pot, mugs
- [ ] Headlamps, extra batteries
- [ ] Rain jackets (it's a rainforest…)
- [ ] Cooler with ice, water jugs
- [ ] National park pass
- [ ] Bear canister not needed here but food in the car at night`,
  },
  {
    id: 'n104',
    title: 'Beacon dunning settings',
    createdAt: '2025-07-22T18:00:00Z',
    tags: ['work', 'beacon'],
    body: `# Beacon: dunning settings

What we configured in Stripe for failed card payments:

- **Smart Retries off**, we use a fixed schedule so support can explain it
- Retry the card **3 times: day 1, day 4 and day 10** after the failure
- Email on each failure with a link to update the card
- After the last retry the subscription goes to \`past_due\`, access stays for a 7-day grace period, then it's canceled
- Card expiring soon: email 14 days before

Grace asked for a weekly report of revenue recovered by retries. First month: recovered 61% of failed payments.`,
  },
  {
    id: 'n105',
    title: 'Physio — right knee',
    createdAt: '2025-07-25T19:00:00Z',
    tags: ['health', 'fitness', 'physio'],
    body: `# Physio appointment — right knee

**Diagnosis:** patellofemoral pain syndrome ("runner's knee"). Caused by a jump in weekly volume + weak hips/glutes letting the knee cave in.

## Exercises (daily, 3 sets × 15)
- Clamshells with band
- Side-lying leg raises
- Single-leg glute bridges
- Slow step-downs from a 20 cm step (control the knee over the 2nd toe)
- Wall sit 3 × 30 s

## Running
- OK to keep running if pain stays ≤ 3/10 and is gone the next morning
- Next week is a cutback week, no hills
- Cadence up ~5% (aim 170 spm)

Follow-up in 3 weeks. $140, insurance covers 80%.`,
  },
  {
    id: 'n106',
    title: 'Sci-fi recommendations from Raj',
    createdAt: '2025-07-27T05:00:00Z',
    tags: ['books', 'reading-list', 'sci-fi'],
    body: `# Sci-fi recs from Raj

Raj went on a 20-minute rant at the BBQ, writing this down before I forget:

1. **Children of Time** — Adrian Tchaikovsky. Evolution of spiders over millennia. "Trust me on the spiders."
2. **The Murderbot Diaries** — Martha Wells. Short, funny, a security robot that just wants to watch TV.
3. **A Memory Called Empire** — Arkady Martine. Politics + language.
4. **Hyperion** — Dan Simmons. Canterbury Tales in space.
5. **Exhalation** — Ted Chiang, short stories. "Better than Stories of Your Life."

He says skip Foundation, "it's a history textbook with spaceships".`,
  },
  {
    id: 'n107',
    title: "BBQ at Raj's",
    createdAt: '2025-07-27T06:00:00Z',
    tags: ['journal', 'friends'],
    body: `# Jul 26 — BBQ at Raj's

Hot day, 31°C. Raj smoked a brisket for 14 hours and wouldn't stop talking about the bark.

- Dana and her fiancé Marco are getting married in 4 weeks, everyone asked about the Sonoma plans
- Raj went deep on sci-fi recommendations, I wrote them down in a separate note
- Priya came with her new puppy, a corgi named Biscuit
- Played cornhole until it got dark; Sam and I lost every game

Drove home with a bag of leftover brisket. Good friends, good summer.`,
  },
  {
    id: 'n108',
    title: 'Tomatoes 2025',
    createdAt: '2025-07-28T02:00:00Z',
    tags: ['garden', 'tomatoes'],
    body: `# Tomatoes 2025

## Varieties
- **Sungold** (cherry) ×2 — candy, the best
- **Cherokee Purple** ×2 — ugly, delicious
- **San Marzano** ×2 — for sauce
- Early Girl ×1

Planted out May 18, deep (buried 2/3 of the stem), cages + stakes.

## Problem: blossom end rot
Several San Marzanos have **black, leathery patches on the bottom**. That's blossom end rot — a calcium problem, but almost always caused by **uneven watering**, not lack of calcium in the soil.
- Water deeply and regularly (drip line, 20 min every other morning)
- Mulch with straw to keep moisture even
- Pick the affected ones off

Everything else: tons of fruit. Sungolds splitting after rain, oh well.`,
  },
  {
    id: 'n109',
    title: 'Postgres: autovacuum and table bloat',
    createdAt: '2025-07-30T21:30:00Z',
    tags: ['programming', 'postgres'],
    body: `# Postgres: autovacuum and bloat

The \`sessions\` table (lots of updates) was 40 GB for 3 GB of live data.

Why: default \`autovacuum_vacuum_scale_factor = 0.2\` means vacuum only runs after 20% of rows are dead. On a 50M row table that's 10M dead tuples.

Per-table settings:
\`\`\`sql
ALTER TABLE sessions SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_cost_limit = 2000
);
\`\`\`
- Check dead tuples: \`SELECT relname, n_dead_tup, last_autovacuum FROM pg_stat_user_tables ORDER BY n_dead_tup DESC;\`
- Plain VACUUM doesn't shrink the file, it makes space reusable. To actually shrink: \`pg_repack\` (online) or VACUUM FULL (locks!)
- Long-running transactions block cleanup — check \`pg_stat_activity\` for old \`xact_start\``,
  },
  {
    id: 'n110',
    title: 'Berlin conference trip logistics',
    createdAt: '2025-08-02T17:00:00Z',
    tags: ['travel', 'berlin', 'work', 'conference'],
    body: `# Berlin — DevWorld conference trip

**Conference:** Sep 3–5, at the Estrel Congress Center

## Flights
- Out: Aug 31, SEA → FRA → BER (Lufthansa), lands Sep 1 morning
- Back: Sep 6, BER → SEA via Amsterdam

## Hotel
**Hotel Oderberger** in Prenzlauer Berg, Aug 31–Sep 6 (in a converted bathhouse, has a pool!). Company rate 145 €/night.

## Budget
Approved $2,500 total by Leah. Ticket $890 (early bird), flights ~$1,050, hotel goes slightly over → Leah said fine.

## Free day Sep 2
- East Side Gallery, Tempelhof field run
- Dinner with Felix (ex-colleague) in Kreuzberg

- [ ] Adapter plugs
- [ ] Expense receipts folder`,
  },
  {
    id: 'n111',
    title: 'kubectl cheatsheet',
    createdAt: '2025-08-05T16:00:00Z',
    tags: ['programming', 'kubernetes', 'cheatsheet'],
    body: `# kubectl cheatsheet

\`\`\`bash
kubectl config get-contexts
kubectl config use-context prod-us-west
kubectl config set-context --current --namespace=harbor   # switch default namespace
kubectl get pods -o wide -l app=itinerary
kubectl rollout status deploy/itinerary
kubectl rollout undo deploy/itinerary
kubectl port-forward svc/harbor-rw 5432:5432
kubectl get events --sort-by=.lastTimestamp
kubectl exec -it deploy/itinerary -- sh
kubectl debug -it pod/x --image=busybox --target=app
\`\`\`

Also installed \`kubectx\`/\`kubens\` and k9s. Alias \`k=kubectl\`.`,
  },
  {
    id: 'n112',
    title: 'Honda — mechanic bill',
    createdAt: '2025-08-06T23:30:00Z',
    tags: ['car', 'finance', 'repair'],
    body: `# Honda — mechanic bill, Aug 6

Grinding noise when stopping got loud, took it to **Eastside Auto** (Tony's recommendation).

| Work | Cost |
|---|---|
| Front pads + rotors | $520 |
| Rear pads | $240 |
| Serpentine belt (cracked) | $210 |
| Brake fluid flush | $130 |
| Labor extra + shop fees | $184 |
| **Total** | **$1,284** |

Ouch. But they showed me the rotors, really scored. Tony says Eastside is honest and that matches: they told me the timing is fine and didn't upsell.

Odometer 64,900. Paid with the emergency fund card, refilled it next paycheck.`,
  },
  {
    id: 'n113',
    title: '爸爸 65 岁生日礼物',
    createdAt: '2025-08-10T03:00:00Z',
    tags: ['gifts', '中文', 'family'],
    body: `# 爸爸 65 岁生日礼物

生日是 9 月 3 日，要提前寄到杭州。

## 想法
- 按摩椅太大了，不好寄
- 智能手表：可以测血压和心率，但他不一定会用
- 好茶叶：他已经有很多了
- 一本相册：把这些年的家庭照片做成相册 ✅

## 决定
做了一本**家庭相册**，从他年轻时的照片到 Lily 的照片，一共 80 页。再加一个**颈部按摩仪**，他老说脖子疼。

- [x] 整理照片
- [x] 在网上订相册，8 月 15 日前下单
- [ ] 录一段生日祝福视频`,
  },
  {
    id: 'n114',
    title: 'TS: template literal types for event names',
    createdAt: '2025-08-12T21:15:00Z',
    tags: ['programming', 'typescript'],
    body: `# TS: template literal types

Typed event handler props from an events map:

\`\`\`ts
type Events = { open: void; close: { reason: string } };
type Handlers = {
  [K in keyof Events as \`on\${Capitalize<K & string>}\`]: (e: Events[K]) => void;
};
// { onOpen: (e: void) => void; onClose: (e: { reason: string }) => void }
\`\`\`

- Key remapping with \`as\` in mapped types
- Built-ins: \`Uppercase\`, \`Lowercase\`, \`Capitalize\`, \`Uncapitalize\`
- Can also parse strings: \`type Param<S> = S extends \`\${string}:\${infer P}/\${string}\` ? P : never\`

Used it for the analytics event names in Atlas so typos in event names fail to compile.`,
  },
  {
    id: 'n115',
    title: 'Miso — vet visit',
    createdAt: '2025-08-14T23:00:00Z',
    tags: ['cat', 'miso', 'vet'],
    body: `# Miso's vet visit — Aug 14

Annual checkup at Greenlake Animal Hospital, Dr. Ramos.

- Weight **5.8 kg** — "a bit chonky", goal 5.3 kg → measure food, fewer treats
- Heart and lungs normal, bloodwork fine for a 9-year-old
- **Teeth: tartar buildup and stage 2 periodontal disease**, red gums at the back molars
- Recommended a **dental cleaning under anesthesia**, estimate **$650–$900** depending on whether extractions are needed
- Vaccines up to date (rabies next year)

Scheduled the dental for Sep 10. No food after 10pm the night before.`,
  },
  {
    id: 'n116',
    title: "Toast for Dana's wedding",
    createdAt: '2025-08-15T04:00:00Z',
    tags: ['friends', 'wedding', 'writing'],
    body: `# Toast draft — Dana & Marco

(~3 min, practice out loud!)

Hi everyone, I'm Dana's friend from grad school — her lab partner, her roommate for two years, and the person who watched her burn three pots of rice in one week.

Dana was the one who'd stay until 2am to help you debug your code even when her own experiment was failing. She's the most loyal person I know.

When she met Marco, she called me and said "he alphabetizes his spices." I said "marry him." ... (pause for laughs)

Marco, you are getting someone who will always show up.

Please raise your glasses: to Dana and Marco!

- [ ] Time it, cut to 3 min
- [ ] Print on a card, not the phone`,
  },
  {
    id: 'n117',
    title: 'Running log — week of Aug 11',
    createdAt: '2025-08-18T04:00:00Z',
    tags: ['fitness', 'running', 'log'],
    body: `# Running log — week of Aug 11

| Day | Run | Distance | Pace |
|---|---|---|---|
| Tue | easy | 6 km | 6:10/km |
| Thu | hills 8×60 s | 9 km total | — |
| Sun | long | 16 km | 6:02/km |

**Total: 31 km** — cutback week on purpose (physio's advice) while doing the knee exercises.

Knee is better, no pain on the long run, a bit stiff afterwards. Wildfire smoke on Friday, skipped the run.`,
  },
  {
    id: 'n118',
    title: 'Atlas sync — Aug 18',
    createdAt: '2025-08-18T16:30:00Z',
    tags: ['work', 'atlas', 'meeting'],
    body: `# Atlas sync — Aug 18

Attendees: Priya, Marcus, Jonas, Elena, me

## Beta plan
- Closed beta through TestFlight + Play internal testing, **200 users** from the customer panel
- Beta starts Sep 15, runs ~6 weeks
- Quality bar for going public: crash-free sessions target **99.5%**

## Dark mode
Cut from v1, moves to v1.1. Reasons:
- Elena's QA matrix doubles (every screen × light/dark × 3 platforms)
- Half the illustrations don't have dark variants yet
- Design tokens for dark surfaces aren't final

Jonas is not happy but agreed if it's the first thing in v1.1.

## Action items
- [ ] Elena: beta feedback form + triage rota
- [ ] Jonas: dark palette proposal for v1.1
- [ ] Me: feature flag for dark mode so we can ship it dark-launched`,
  },
  {
    id: 'n119',
    title: 'Docker: multi-stage builds for Node',
    createdAt: '2025-08-20T19:45:00Z',
    tags: ['programming', 'docker'],
    body: `# Docker multi-stage for Node services

\`\`\`dockerfile
FROM node:22-slim AS build
WORKDIR /app
COPY package*.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
CMD ["node", "dist/main.js"]
\`\`\`

- Image went from 1.1 GB to 240 MB
- Copy package files first so \`npm ci\` is cached when only source changes
- \`USER node\` — don't run as root
- \`.dockerignore\` node_modules and .git!`,
  },
  {
    id: 'n120',
    title: "Dana and Marco's wedding",
    createdAt: '2025-08-24T17:00:00Z',
    tags: ['journal', 'friends', 'wedding'],
    body: `# Aug 23 — Dana & Marco's wedding

At a vineyard in Sonoma, outdoor ceremony under an old oak tree at 5pm. Dana cried before she even reached Marco, then everyone cried.

My toast went well! People laughed at the grad-school story in the right places, and the ending made Dana's mom tear up. Hands were shaking for the first 30 seconds.

- Dinner: family-style, the short ribs were incredible
- First dance to "At Last"
- Sam danced for 3 hours straight, who knew
- Sparkler exit at 11pm

So happy for them. Flying back tomorrow morning, very tired.`,
  },
  {
    id: 'n121',
    title: 'Garden tomato sauce',
    createdAt: '2025-08-24T23:00:00Z',
    tags: ['recipe', 'garlic', 'tomatoes', 'garden'],
    body: `# Garden tomato sauce

For the tomato glut in August. Makes ~4 jars.

- 3 kg ripe tomatoes (mix of Roma + whatever the garden gives)
- 8 cloves garlic, smashed
- 1 onion, 1/3 cup olive oil
- basil, salt, a pinch of sugar if acidic

1. Score, blanch 30 s, ice bath, peel. Or just halve and food-mill later.
2. Soften onion and garlic in oil, don't color.
3. Tomatoes in, simmer uncovered **2 hours** until thick.
4. Basil at the end. Blend or leave chunky.

Freezes well in quart bags flat. Used the last bag in February for lasagna.`,
  },
  {
    id: 'n122',
    title: 'Team offsite planning',
    createdAt: '2025-08-28T17:20:00Z',
    tags: ['work', 'offsite', 'planning'],
    body: `# Team offsite planning

**When:** Oct 8–9
**Where:** Leavenworth, cabin rental for 12

## Budget
$450 per person including lodging, food, activities. Leah approved.

## Agenda draft
Day 1
- Morning: 2026 roadmap themes
- Lunch
- Afternoon: hike (Icicle Gorge loop, easy)
- Evening: dinner + board games

Day 2
- "What's slowing us down" session
- Team charter / on-call norms
- Drive back by 4pm

## Todo
- [x] Book the cabin
- [ ] Dietary restrictions form
- [ ] Carpool sheet
- [ ] Ask Jonas to run the design-thinking exercise`,
  },
  {
    id: 'n123',
    title: 'The Power of Habit — notes',
    createdAt: '2025-08-31T05:00:00Z',
    tags: ['books', 'habits', 'nonfiction'],
    body: `# The Power of Habit — Charles Duhigg

⭐⭐⭐ Great stories, lighter on how-to.

## Ideas
- The **habit loop: cue, routine, reward**. Over time the brain starts anticipating the reward as soon as it sees the cue — that craving is what drives the habit.
- **Golden rule of habit change**: you can't delete a habit, but keep the same cue and reward and swap in a new routine
- **Keystone habits**: some habits (exercise, family dinners, making your bed) trigger chains of other good changes
- Willpower acts like a muscle, trained by small disciplines
- Organizations have habits too (Alcoa's safety focus under Paul O'Neill)

## For me
My afternoon cookie habit → the reward is actually a break and chatting. Replaced with a walk to get tea with Ana.`,
  },
  {
    id: 'n124',
    title: 'Overnight oats',
    createdAt: '2025-09-01T14:30:00Z',
    tags: ['recipe', 'breakfast', 'meal-prep'],
    body: `# Overnight oats

Breakfast during half marathon training.

Per jar:
- 1/2 cup rolled oats
- 1/2 cup milk + 1/4 cup Greek yogurt
- 1 tbsp chia seeds
- 1 tsp maple syrup
- pinch of salt, cinnamon

Shake, fridge overnight. Top in the morning with berries, peanut butter, or grated apple.

~400 kcal, 20 g protein with the yogurt. Make 4 jars on Sunday.`,
  },
  {
    id: 'n125',
    title: 'DevWorld Berlin — talk notes day 1',
    createdAt: '2025-09-03T17:00:00Z',
    tags: ['work', 'conference', 'berlin'],
    body: `# DevWorld Berlin — day 1 talks

## "Postgres at scale without a DBA"
- Most outages they saw were lock-related migrations, not load
- Every migration session sets a lock timeout, retry with backoff
- pg_stat_statements is the first thing to turn on

## "Type-safe APIs end to end"
- Schemas as the single source of truth (zod/JSON Schema), generate clients
- Version by adding fields, never by changing meaning

## Hallway
Met two people running CloudNativePG in production, both happy. One warned about storage class performance on their cloud.`,
  },
  {
    id: 'n126',
    title: 'DevWorld Berlin — talk notes day 2',
    createdAt: '2025-09-04T17:00:00Z',
    tags: ['work', 'conference', 'berlin'],
    body: `# DevWorld Berlin — day 2 talks

## "Platform teams as product teams"
- Treat internal developers as customers: roadmap, user research, docs
- Golden paths, not golden cages
- Measure lead time and developer satisfaction quarterly

## "Mobile release engineering"
- Staged rollouts + automatic halt on crash spikes
- Keep a kill switch for every new feature
- OTA updates only for fixes

## Keynote
Mostly AI hype, one good line: "the best code is the code you delete".

Idea for us: a golden path template for new services (Dockerfile, k8s manifests, OTel, CI).`,
  },
  {
    id: 'n127',
    title: 'Monstera care',
    createdAt: '2025-09-06T18:00:00Z',
    tags: ['houseplants'],
    body: `# Monstera

Leaves turning **yellow** (the lower ones first), soil always damp.

Diagnosis: **overwatering**. The pot had no drainage hole under the decorative cover.

## Fix
- Repotted into a nursery pot with holes + chunky mix (1/3 potting soil, 1/3 orchid bark, 1/3 perlite)
- Roots: cut off a few mushy brown ones
- Now water only when the **top 2 inches are dry** — about every 10 days
- Bright indirect light, away from the radiator

New leaf unfurling a month later, with fenestrations!`,
  },
  {
    id: 'n128',
    title: 'Meal prep — week of Sep 8',
    createdAt: '2025-09-07T19:00:00Z',
    tags: ['meal-prep', 'groceries', 'planning'],
    body: `# Meal prep — week of Sep 8

Training week, lots of running, need protein.

## Plan
- Breakfast: [[Overnight oats]] ×4
- Lunch: [[Instant Pot turkey chili]] ×4 + rice
- Dinner Mon: [[Thai green curry]]
- Dinner Tue: leftovers
- Dinner Wed: [[Garlic butter shrimp]]
- Thu/Fri: wing it / eat out

## Groceries
- [ ] oats, chia, yogurt, berries
- [ ] ground turkey, beans ×3, crushed tomatoes
- [ ] chicken thighs, coconut milk, curry paste
- [ ] shrimp (frozen is fine), lemons, parsley
- [ ] rice`,
  },
  {
    id: 'n129',
    title: 'Week of Sep 8',
    createdAt: '2025-09-08T15:00:00Z',
    tags: ['work', 'planning'],
    body: `# Week of Sep 8

## Top 3
1. Harbor load test review
2. Atlas beta readiness (feature flags, feedback form)
3. Write Berlin trip report

## Todo
- [x] Expense report for Berlin
- [ ] Alert cleanup prep for on-call discussion
- [ ] Half marathon: long run Saturday
- [ ] Ana 1:1 — first on-call shadow

## Notes
Tired after the conference. Protect mornings for focus work.`,
  },
  {
    id: 'n130',
    title: 'Harbor sync — Sep 9',
    createdAt: '2025-09-09T20:00:00Z',
    tags: ['work', 'harbor', 'meeting'],
    body: `# Harbor sync — Sep 9

Attendees: Wei, Tomás, Anika, me

## Load test results
Replayed a day of dashboard traffic:
- p95 query time **340 ms** on Postgres vs 1.2 s on the MySQL replicas
- Two queries got slower: both use \`LIKE '%...%'\` on big text columns. Wei will try trigram indexes.
- Replication lag from production stays under 5 s

## Cutover plan for dashboards
Switch Metabase's default database team by team, finance last (end of month close).

## Action items
- [ ] Wei: pg_trgm indexes for the slow queries
- [ ] Anika: tell analysts about the switch dates
- [ ] Me: decommission plan for the MySQL replicas`,
  },
  {
    id: 'n131',
    title: 'Car insurance renewal',
    createdAt: '2025-09-12T04:00:00Z',
    tags: ['car', 'finance', 'insurance'],
    body: `# Car insurance renewal

Renewal notice from Progressive: 6-month premium **$612 → $722** (+18%) with no claims and no tickets.

Called them, their reason: statewide rate increase approved for Washington because repair and parts costs went up a lot (and more accidents overall). Nothing about our record.

Shopped around:
- State Farm: $655
- **PEMCO: $598** with the multi-policy discount (bundled with the home insurance)
- Geico: $701

**Switched to PEMCO**, same coverage (100/300/100, $500 deductible). Cancel Progressive effective Oct 1 and get the prorated refund.`,
  },
  {
    id: 'n132',
    title: 'The Design of Everyday Things — notes',
    createdAt: '2025-09-14T04:30:00Z',
    tags: ['books', 'design'],
    body: `# The Design of Everyday Things — Don Norman

Jonas lent it to me.

- **Affordances**: the relationship between an object and a person that determines how it *could* be used (a chair affords sitting)
- **Signifiers**: signals that show *where and how* to act (a push plate on a door). Designers mostly need to care about signifiers.
- **Norman doors**: doors where you can't tell push vs pull — bad signifiers
- **Mapping**: controls laid out like what they control (stove knobs!)
- **Feedback** and **constraints**
- Human error is usually design error

Now I can't unsee bad doors at the office.`,
  },
  {
    id: 'n133',
    title: 'On-call handoff — Sep 15',
    createdAt: '2025-09-15T16:00:00Z',
    tags: ['work', 'oncall'],
    body: `# On-call handoff → Ana

Week summary: **11 pages**, 4 at night. Rough.

## Recurring
- \`HarborReplicationLagHigh\` fired 5× — all during the nightly Debezium backfill, self-resolved. Not actionable → proposing to raise the threshold to 60 s for 10 min.
- \`CheckoutErrorRate\` once: Stripe had a partial outage, nothing to do but watch.
- Disk alert on the logging node, cleaned old indices.

## Open
- Itinerary pods restarted twice Tuesday night, looked like a node drain, no user impact
- Runbook for Harbor lag needs updating

Ping me on Slack if anything is weird, I'm around.`,
  },
  {
    id: 'n134',
    title: '1:1 with Leah — Sep 16',
    createdAt: '2025-09-16T22:00:00Z',
    tags: ['work', '1on1'],
    body: `# 1:1 with Leah — Sep 16

## On-call
I raised that on-call is wearing me down: I was paged 11 times in my last week, 4 of them at night, mostly Harbor noise. Agreed:
- Move from a 1-in-4 rotation to **1 week in 6** by adding Ana and Dev
- Tomás and I will tune the noisy alerts; anything paging that isn't actionable gets deleted
- Comp day after any night with 2+ pages

## Berlin
Gave her a quick summary of the conference, trip report coming.

## Todo
- [ ] Alert cleanup session with Tomás
- [ ] Update the on-call schedule in PagerDuty`,
  },
  {
    id: 'n135',
    title: 'Running on empty',
    createdAt: '2025-09-18T05:00:00Z',
    tags: ['journal', 'work', 'burnout'],
    body: `# Sep 17 — running on empty

Not a good week. On-call last week was brutal (11 pages), came back from Berlin jet-lagged, and the Harbor load test review slipped.

Symptoms I should take seriously:
- Waking up at 4am thinking about alerts
- Snapping at Sam about small things
- Skipped two runs, which I never do in a training block

Talked to Leah yesterday and we fixed the rotation, which helps. Also:
- Taking Friday off
- No laptop after dinner this week
- Long run on Saturday is non-negotiable

Writing this so future me recognizes the pattern earlier.`,
  },
  {
    id: 'n136',
    title: 'Anniversary gift for Sam',
    createdAt: '2025-09-20T04:00:00Z',
    tags: ['gifts', 'sam'],
    body: `# First anniversary gift for Sam — Oct 4

Traditional first anniversary = **paper**.

## Ideas
- Custom star map of the night we met (paper ✔)
- Handwritten letters, one for each month of the first year
- Concert tickets — Khruangbin plays the Paramount in November
- Bookbinding class for two
- Fancy fountain pen

## Decision
**Framed star map print** of the sky over Capitol Hill on the night we met + **two Khruangbin tickets** (paper tickets, they count!).

- [x] Order the print (3 weeks lead time!)
- [x] Tickets bought
- [ ] Frame from the shop on 15th Ave`,
  },
  {
    id: 'n137',
    title: 'Spanish: when to use the subjunctive',
    createdAt: '2025-09-20T04:00:00Z',
    tags: ['language', 'spanish'],
    body: `# Spanish subjunctive — WEIRDO

Triggers for the subjunctive in the dependent clause (after *que*):

- **W**ishes: Quiero que **vengas**.
- **E**motions: Me alegra que **estés** aquí.
- **I**mpersonal expressions: Es importante que **estudies**.
- **R**ecommendations: Te recomiendo que **pruebes** el pulpo.
- **D**oubt/denial: No creo que **llueva**.
- **O**jalá: Ojalá **haga** sol mañana.

Not with certainty: Creo que **llueve** (indicative!) vs No creo que **llueva**.

Studying with Sam's coworker Lucía on Saturdays at the café, 1 hour English / 1 hour Spanish exchange. Refreshing from high school.`,
  },
  {
    id: 'n138',
    title: 'Running log — week of Sep 15',
    createdAt: '2025-09-22T04:00:00Z',
    tags: ['fitness', 'running', 'log'],
    body: `# Running log — week of Sep 15

| Day | Run | Distance | Pace |
|---|---|---|---|
| Tue | easy | 8 km | 5:55/km |
| Wed | race pace 3×3 km | 12 km total | 5:15/km |
| Fri | easy | 6 km | 6:00/km |
| Sun | long, **20 km** — longest ever | 20 km | 5:50/km |

**Total: 46 km** — peak week, taper starts next week.

Felt strong on the 20 k, practiced race-day breakfast (bagel + banana 3 h before). Race in 3 weeks!`,
  },
  {
    id: 'n139',
    title: 'Postgres: pg_dump and pg_restore',
    createdAt: '2025-09-23T19:00:00Z',
    tags: ['programming', 'postgres'],
    body: `# Postgres: dump & restore

\`\`\`bash
pg_dump -Fc -d appdb -f appdb.dump          # custom format, compressed
pg_restore -j 4 --no-owner --no-acl -d appdb_copy appdb.dump
\`\`\`

- \`-Fc\` (custom) or \`-Fd\` (directory) are needed for **parallel restore** with \`-j\`
- \`-Fd\` also allows parallel *dump* (\`pg_dump -j 4 -Fd\`)
- \`--no-owner\` avoids errors when roles differ between environments
- Restore one table: \`pg_restore -t bookings ...\`
- List contents: \`pg_restore -l appdb.dump\`

Took 12 min to restore the 60 GB staging copy with \`-j 8\`.`,
  },
  {
    id: 'n140',
    title: "Miso's food plan",
    createdAt: '2025-09-25T03:00:00Z',
    tags: ['cat', 'miso'],
    body: `# Miso's food plan

After the dental (one tooth pulled, $820 in the end, she's fine and very annoyed).

- Morning: 1/2 can wet food (Tiki Cat, chicken)
- Evening: **30 g dental kibble** (Hill's t/d), big kibble so she has to chew
- Total ~220 kcal/day to get her from 5.8 to 5.3 kg slowly
- Treats: max 5 per day, count them!
- Puzzle feeder for the kibble, slows her down

Weigh her every 2 weeks on the baby scale Mei gave us. Sep 24: 5.7 kg.`,
  },
  {
    id: 'n141',
    title: '爸爸的血压',
    createdAt: '2025-09-28T13:00:00Z',
    tags: ['health', '中文', 'family'],
    body: `# 爸爸的血压

今天和妈妈视频，她说爸爸上周体检血压 **155/95**，医生让他开始吃药。

## 医生的建议
- 每天早上吃一片**氨氯地平 5mg**
- 少盐，每天不超过 5 克
- 每天快走 30 分钟
- 每周量 3 次血压，记下来

## 我要做的
- [ ] 给爸爸买一个上臂式电子血压计（欧姆龙）
- [ ] 每周日视频时问一下血压记录
- [ ] 提醒妈妈做菜少放盐

希望他认真吃药，他总觉得自己身体很好。`,
  },
  {
    id: 'n142',
    title: 'Kubernetes: HorizontalPodAutoscaler setup',
    createdAt: '2025-09-30T18:00:00Z',
    tags: ['programming', 'kubernetes', 'scaling'],
    body: `# HPA for the itinerary service

\`\`\`yaml
minReplicas: 3
maxReplicas: 12
metrics:
  - type: Resource
    resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } }
behavior:
  scaleDown:
    stabilizationWindowSeconds: 300
\`\`\`

- Utilization is relative to the **CPU request**, so requests must be realistic
- Scale-down stabilization of 5 min stops flapping after traffic spikes
- Considered scaling on request rate via KEDA, later
- Don't set a CPU limit on latency-sensitive pods (throttling), only requests`,
  },
  {
    id: 'n143',
    title: 'The Pragmatic Programmer — notes',
    createdAt: '2025-10-02T04:00:00Z',
    tags: ['books', 'programming'],
    body: `# The Pragmatic Programmer (20th anniversary ed.)

- **DRY** is about knowledge, not code — two identical-looking functions can encode different knowledge
- **Broken windows**: fix small rot right away or quality decays everywhere
- **Tracer bullets**: build a thin end-to-end slice that goes through every layer (UI → API → DB) early, then flesh it out. Unlike a prototype, the code is kept.
- Prototypes are throwaway, for learning
- **Orthogonality**: changes in one component shouldn't ripple
- "Don't program by coincidence"
- Rubber ducking

Used the tracer bullet idea for Atlas booking flow: one ugly screen talking to the real API in week 2.`,
  },
  {
    id: 'n144',
    title: 'Budget review — September 2025',
    createdAt: '2025-10-04T05:00:00Z',
    tags: ['finance', 'budget'],
    body: `# Budget review — September 2025

| Category | Budget | Actual |
|---|---|---|
| Rent/mortgage | 2,850 | 2,850 |
| Groceries | 750 | **690** |
| Eating out | 400 | 620 |
| Utilities + internet | 280 | 230 |
| Transport | 200 | 150 |
| Subscriptions | 60 | 48 (after the audit) |
| Fun / hobbies | 300 | 180 |
| Gifts | 100 | 210 (Dad's 65th) |

**Saved: $2,250** (19%).

Notes: eating out way over — Berlin per diem didn't cover everything and we had a lot of friends' dinners. Subscriptions finally down after the cleanup.`,
  },
  {
    id: 'n145',
    title: 'First anniversary',
    createdAt: '2025-10-05T06:00:00Z',
    tags: ['journal', 'sam'],
    body: `# Oct 4 — first wedding anniversary

One year married! Dinner at **Canlis**, the tasting menu, window table overlooking Lake Union at sunset. The server brought a little card with "Happy Anniversary" and a dessert on the house.

We talked about the year: the house stuff, Lisbon, my crazy work months, Sam's freelancing taking off. And the plan for Japan next spring.

Walked along the water afterwards even though it was cold. Very happy.`,
  },
  {
    id: 'n146',
    title: 'Flu shot and booster',
    createdAt: '2025-10-05T18:00:00Z',
    tags: ['health'],
    body: `# Flu shot + COVID booster — Oct 5

Got both at the Walgreens on 45th, left arm flu, right arm COVID.

- Sore arm for a day, mild tiredness, no fever
- Sam got his the same day
- Insurance covered both, $0
- Recorded in the state vaccine portal

Reminder for next year: do it early October again, before the race and the holidays. Also need the tetanus booster (last one 2016, due 2026).`,
  },
  {
    id: 'n147',
    title: 'Atlas sync — Oct 6',
    createdAt: '2025-10-06T16:30:00Z',
    tags: ['work', 'atlas', 'meeting'],
    body: `# Atlas sync — Oct 6

Attendees: Priya, Marcus, Jonas, Elena, Hannah (marketing), me

## Beta feedback (3 weeks in)
- 143 of the 200 beta users active
- Crash-free sessions at **98.7%** — below the bar. Top crash is in the maps module on Android 14.
- Google sign-in fails for some Samsung devices (Play Services outdated?)
- People love the new itinerary view; booking flow feels "long"

## Analytics
Mixpanel renewal quote came back at 3× last year. **Switching Atlas analytics to PostHog** — self-serve pricing, and we get session replay. Marcus to migrate the event schema; event names stay the same.

## Action items
- [ ] Marcus: fix maps crash, upgrade the SDK
- [ ] Me: PostHog event pipeline + dashboards
- [ ] Jonas: shorten booking flow from 5 steps to 4
- [ ] Hannah: draft launch messaging`,
  },
  {
    id: 'n148',
    title: 'Podcast notes: Acquired on TSMC',
    createdAt: '2025-10-09T02:00:00Z',
    tags: ['podcast', 'business'],
    body: `# Acquired — TSMC episode

Listened during the long run.

- Morris Chang founded TSMC in 1987 at 56, after being passed over for CEO at Texas Instruments
- The **pure-play foundry** model: only manufacture chips designed by others, never compete with customers. Everyone laughed at it then.
- Enabled the fabless industry (Nvidia, Apple silicon, AMD after spinning off its fabs)
- Learning curve economics: yield improves with volume, so the leader keeps getting cheaper
- Taiwan's government funding + cultural focus on engineering

Interesting parallel to platform teams: being the boring reliable supplier is a moat.`,
  },
  {
    id: 'n149',
    title: 'Pizza dough (cold ferment)',
    createdAt: '2025-10-11T21:00:00Z',
    tags: ['recipe', 'baking', 'pizza'],
    body: `# Pizza dough — 72 h cold ferment

For 4 pizzas, ~260 g balls:
- 600 g 00 flour
- 390 g water (65%)
- 18 g salt
- 1 g instant yeast (yes, just 1 g)

1. Mix, rest 20 min, knead 5 min until smooth.
2. Into the fridge for **3 days** in one container.
3. Day of: divide into balls 4–6 h before baking, leave at room temp.
4. Pizza steel on the top rack, oven at max (**550°F**) for 1 hour.
5. Stretch, top lightly, 6–7 min, broil the last minute.

The long fridge rest gives the flavor and the blisters. 48 h is fine too, 24 h is noticeably blander.`,
  },
  {
    id: 'n150',
    title: 'Earthquake kit',
    createdAt: '2025-10-12T23:00:00Z',
    tags: ['home', 'preparedness', 'checklist'],
    body: `# Earthquake / emergency kit

Seattle, so… the Big One. Kit in the garage + a small one in the car.

## Garage kit (2 people + cat, 2 weeks)
- [x] Water: **14 gallons** (1 gal/person/day) + cat
- [x] Canned food, can opener, camp stove (see camping gear)
- [x] First aid kit, meds list, spare glasses
- [ ] Cash in small bills ($200)
- [x] Headlamps, radio (hand crank)
- [ ] Cat carrier + 2 weeks of cat food
- [x] Copies of IDs in a zip bag

## Plan
- Meet at the park on the corner if we're separated
- Out-of-state contact: Mei in Vancouver

Rotate water and food every October.`,
  },
  {
    id: 'n151',
    title: 'Victoria Half Marathon — race report',
    createdAt: '2025-10-13T03:00:00Z',
    tags: ['fitness', 'running', 'race'],
    body: `# Victoria Half Marathon — race report

**Official time: 1:52:37** 🎉 (goal was sub-1:55)

- Started with the 1:55 pace group, left them at km 8 feeling good
- km 1–10 at ~5:25, km 10–18 at ~5:18
- Hill at km 15 hurt, the last 3 km were a grind, lost ~20 s
- Gels at km 7 and 14, water at every station
- Knee: zero pain!

Sam and Mei (came over from Vancouver) cheered at km 12 and at the finish. Fish and chips after on the harbor.

Next: maybe a spring 10k, then a full marathon in 2026?? 🤔`,
  },
  {
    id: 'n152',
    title: 'TS: enums vs union types',
    createdAt: '2025-10-14T18:45:00Z',
    tags: ['programming', 'typescript'],
    body: `# TS: enums vs unions

Team discussion, writing down where we landed:

- Prefer **string literal unions**: \`type Status = 'draft' | 'sent' | 'paid'\` — zero runtime code, works with JSON, narrows nicely
- When we need the values at runtime (dropdowns, validation), use a const object:
  \`\`\`ts
  const Status = { Draft: 'draft', Sent: 'sent', Paid: 'paid' } as const;
  type Status = (typeof Status)[keyof typeof Status];
  \`\`\`
- Avoid numeric enums (reverse mapping, any number is assignable in older TS)
- \`const enum\` breaks with isolatedModules / esbuild — banned
- Node's type stripping doesn't support enums at all, another reason to avoid them`,
  },
  {
    id: 'n153',
    title: 'Furnace filter',
    createdAt: '2025-10-18T17:00:00Z',
    tags: ['home', 'maintenance', 'hvac'],
    body: `# Furnace filter

Size: **20 × 25 × 1**, MERV 11 (Filtrete 1000). Buy the 4-pack on Amazon.

- Replace every **3 months** — more often during wildfire smoke season
- Arrow on the frame points **toward the furnace** (airflow direction)
- Turn the thermostat off before swapping
- Last changed: Oct 18
- Annual furnace service in October: $129 with Sound Heating, they also checked the CO detector`,
  },
  {
    id: 'n154',
    title: 'Sunday roast chicken',
    createdAt: '2025-10-19T01:00:00Z',
    tags: ['recipe', 'dinner', 'chicken'],
    body: `# Sunday roast chicken

- 1 whole chicken (~1.8 kg), dry-brined: 1 tbsp kosher salt all over, uncovered in the fridge overnight
- 1 lemon halved, a few thyme sprigs in the cavity
- butter under the skin

Oven at **425°F**, chicken breast-side up on a bed of onions and carrots. About **1 hour 10 min**, until the thigh reads 165°F. Rest 15 min.

Make gravy from the pan juices with a spoon of flour and stock.

Leftovers → chicken salad sandwiches, carcass → stock.`,
  },
  {
    id: 'n155',
    title: 'Harbor incident — disk full',
    createdAt: '2025-10-21T23:15:00Z',
    tags: ['work', 'harbor', 'incident'],
    body: `# Harbor incident — Oct 21

**Summary:** the analytics Postgres primary ran out of disk at 14:52 and went read-only. Dashboards down ~2 hours.

## Why
The S3 credentials used by WAL archiving were rotated by the security team on Oct 17, but the secret in the cluster wasn't updated. \`archive_command\` had been failing for 4 days, so Postgres kept every WAL segment locally (it won't delete WAL until it's archived). The volume filled up.

The WAL archive alert from July existed but pointed at a Slack channel nobody watches anymore.

## Fix
- Updated the secret, archiving caught up in 40 min
- Grew the volume from 500 GB to 800 GB as a buffer

## Follow-ups
- [ ] Alert to PagerDuty, not Slack
- [ ] Use external-secrets so rotations propagate automatically (see [[Kubernetes secrets]])
- [ ] Disk usage alert at 75%`,
  },
  {
    id: 'n156',
    title: 'Kubernetes secrets',
    createdAt: '2025-10-23T19:10:00Z',
    tags: ['programming', 'kubernetes', 'security'],
    body: `# Kubernetes secrets

- A \`Secret\` is only **base64-encoded**, not encrypted. Anyone who can \`get secrets\` in the namespace can read it.
- Turn on encryption at rest for etcd (managed clusters usually do)
- We're adopting **external-secrets operator**: \`ExternalSecret\` objects pull from AWS Secrets Manager and refresh every hour, so credential rotations propagate without a manual \`kubectl apply\`
- Mount as files instead of env vars when the app can reload them; env vars need a pod restart
- RBAC: no \`get secrets\` for humans in prod

Triggered by the Harbor disk incident, see [[Harbor incident — disk full]].`,
  },
  {
    id: 'n157',
    title: '日记：秋天的周末',
    createdAt: '2025-10-26T05:30:00Z',
    tags: ['journal', '中文'],
    body: `# 日记 10 月 26 日

今天天气很好，和 Sam 去了 Discovery Park 散步，树叶都黄了。

下午在花园里把番茄架子拆了，种下了大蒜，希望明年夏天有收获。Miso 在窗台上晒太阳，一动不动。

最近工作有点累，Harbor 项目刚出了一次事故，磁盘满了，好在没有丢数据。提醒自己：不要把所有事都揽在自己身上。

读完了一本英文小说，准备下周开始读《活着》。

晚饭做了番茄炒蛋，简单但是好吃。`,
  },
  {
    id: 'n158',
    title: 'Planting garlic',
    createdAt: '2025-10-27T00:30:00Z',
    tags: ['garden', 'garlic'],
    body: `# Planting garlic

Ordered seed garlic from a local farm: **Music** (hardneck) and **Inchelium Red** (softneck).

## How
- Plant **mid to late October**, a few weeks before the ground freezes
- Break heads into cloves right before planting, biggest cloves only
- Pointy end up, **2 inches deep**, 6 inches apart, rows 12 inches apart
- Mulch with 4" of straw
- Hardnecks send up scapes in June — cut them off (and eat them! pesto)

## Harvest
Next July, when the **lower third of the leaves turn brown**. Cure 3–4 weeks in the garage somewhere airy.

Planted 36 cloves on Oct 26.`,
  },
  {
    id: 'n159',
    title: 'Brown bag: OpenTelemetry tracing',
    createdAt: '2025-10-29T20:00:00Z',
    tags: ['work', 'talk', 'observability'],
    body: `# Brown bag: OpenTelemetry tracing (Tomás)

- Traces = tree of spans; context propagated via the \`traceparent\` header
- Auto-instrumentation for Node covers http, express, pg, ioredis
- **Sampling**: we'll use tail sampling in the collector — keep 100% of errors and slow traces (>1 s), 5% of the rest
- Attributes: put tenant id on the root span, not on every span
- Don't put PII in span attributes (emails!)

My takeaway: add manual spans around the Stripe calls in Beacon, that's where we're blind.

- [ ] Try the Node SDK in the itinerary service`,
  },
  {
    id: 'n160',
    title: 'Sapiens — notes',
    createdAt: '2025-11-02T05:00:00Z',
    tags: ['books', 'history', 'nonfiction'],
    body: `# Sapiens — Yuval Noah Harari

⭐⭐⭐ Fun, some sweeping claims.

- **Cognitive revolution** (~70k years ago): the ability to talk about things that don't exist
- Humans cooperate flexibly in huge numbers because we believe in **shared fictions** — gods, nations, money, companies ("Peugeot doesn't exist except in our collective imagination")
- **Agricultural revolution** as "history's biggest fraud": more food, but harder lives for individuals
- Money = the most universal system of mutual trust
- Empires, science and capitalism as the engine of the last 500 years

Best for dinner party facts.`,
  },
  {
    id: 'n161',
    title: 'Postgres: safe migrations and locks',
    createdAt: '2025-11-04T20:30:00Z',
    tags: ['programming', 'postgres'],
    body: `# Postgres: safe migrations

Lessons from the booking table outage:

- **Always** \`SET lock_timeout = '3s';\` at the top of a migration. An \`ALTER TABLE\` waiting for a lock blocks every query behind it — better to fail fast and retry.
- Build indexes with \`CREATE INDEX CONCURRENTLY\` — no write lock on the table, but it can't run inside a transaction block and takes longer. If it fails it leaves an INVALID index; drop and retry.
- Adding a column with a constant default is instant since PG 11
- Adding \`NOT NULL\`: first add a \`CHECK (col IS NOT NULL) NOT VALID\`, then \`VALIDATE CONSTRAINT\` (weaker lock), then set NOT NULL
- Renaming columns: expand/contract across two deploys`,
  },
  {
    id: 'n162',
    title: 'Water heater: pilot light out',
    createdAt: '2025-11-08T17:00:00Z',
    tags: ['home', 'repair', 'water-heater'],
    body: `# Water heater — no hot water

Pilot light kept going out on the gas water heater (Rheem, 50 gal, 2014).

- Relit per the label: knob to PILOT, hold down, click the igniter, hold 60 s. It lit but went out when I let go → **thermocouple** is bad
- Replaced the thermocouple myself: universal 24" kit, **$25**, 30 min, YouTube video. Gas off first!
- Also flushed the tank: lots of sediment, 10 min of running the drain valve into the yard
- Set the temperature dial to **"hot" ≈ 120°F** (was way higher, scalding risk + wastes gas)

It's 11 years old — start budgeting for a replacement (maybe a heat pump water heater, there are rebates).`,
  },
  {
    id: 'n163',
    title: 'Teaching Sam Mandarin tones',
    createdAt: '2025-11-09T03:00:00Z',
    tags: ['language', 'chinese', 'sam', 'mixed-language'],
    body: `# Teaching Sam Mandarin tones 教 Sam 声调

Sam wants to say more than 你好 at Chinese New Year with my family.

## Tones
1. mā 妈 — high and flat
2. má 麻 — rising, like a question "huh?"
3. mǎ 马 — dip then rise (in real speech mostly just low)
4. mà 骂 — falling, like a command

Classic drill: 妈妈骂马吗？ He laughed for five minutes.

## Phrases for 春节
- 新年快乐 — Happy New Year
- 恭喜发财 — wishing you prosperity (say it, get a red envelope 🧧)
- 谢谢外婆 — thank you, grandma
- 好吃！— delicious (most important one)

Practicing 10 min after dinner. His 3rd tone is getting there; 4th tones sound angry, which is correct.`,
  },
  {
    id: 'n164',
    title: 'Atlas sync — Nov 12',
    createdAt: '2025-11-12T16:30:00Z',
    tags: ['work', 'atlas', 'meeting'],
    body: `# Atlas sync — Nov 12

Attendees: Priya, Marcus, Jonas, Elena, Hannah, Leah, me

## Launch date
**Decision: move the public launch from Feb 2 to March 9, 2026.**

Reasons:
1. In-app subscriptions need a fresh App Store review and Apple is slow in January
2. In-app payments need Beacon's Stripe prices for the legacy plans, which only move over in late January
3. Company-wide code freeze Dec 15 – Jan 5 eats three weeks

Leah signed off. Hannah will shift the press outreach accordingly.

## Quality
Crash-free is up to 99.3% after the maps SDK upgrade.

## Action items
- [ ] Priya: tell the beta users about the new date
- [ ] Me: line up the payments work with Omar from [[Beacon kickoff]] team
- [ ] Elena: regression pass before the freeze`,
  },
  {
    id: 'n165',
    title: 'Thanksgiving plan 2025',
    createdAt: '2025-11-15T05:00:00Z',
    tags: ['holidays', 'food', 'planning'],
    body: `# Thanksgiving 2025 — hosting 8

Guests: Dana, Marco, Raj, Priya (+ Biscuit), Sam's brother Eli and his partner.

## Menu
- Turkey, **dry-brined** 2 days, spatchcocked, 450°F ~80 min
- Garlic mashed potatoes (a whole head of roasted garlic mashed in)
- Green bean casserole (Eli is bringing)
- Stuffing with sourdough cubes
- Cranberry sauce
- Pumpkin pie (Priya), apple pie (Dana)

## Timeline Thursday
- 10:00 turkey out of the fridge
- 12:30 turkey in the oven
- 2:00 rest turkey, potatoes, stuffing in
- 3:00 eat

- [ ] Extra chairs from the garage
- [ ] Costco run on Sunday`,
  },
  {
    id: 'n166',
    title: '《活着》读后感',
    createdAt: '2025-11-16T06:00:00Z',
    tags: ['books', '中文'],
    body: `# 《活着》余华

两个晚上读完，哭了好几次。

## 故事
富贵从地主家的少爷输光家产，经历了战争、饥荒，亲人一个一个离开，最后只剩下他和一头老牛。

## 印象最深
- 有庆为了救县长夫人被抽血抽死，太残忍了
- 家珍一直不离不弃
- 结尾富贵给老牛也取名叫"富贵"，在田里和它说话

## 想法
书名叫"活着"，但不是讲怎么活得好，而是活着本身就是意义。余华写得很平静，越平静越难受。

想起外婆讲过的那些年的事情。下次回国要多听她讲讲过去。`,
  },
  {
    id: 'n167',
    title: 'Strength log — Nov',
    createdAt: '2025-11-17T03:00:00Z',
    tags: ['fitness', 'strength', 'log'],
    body: `# Strength log — November

Back in the gym after the half marathon. 3×/week.

| Lift | Nov 3 | Nov 10 | Nov 17 |
|---|---|---|---|
| Squat | 90 kg | 95 kg | **100 kg** 🎉 |
| Bench | 50 kg | 52.5 kg | 52.5 kg |
| Deadlift | 110 kg | 115 kg | 120 kg |
| OHP | 30 kg | 32.5 kg | 32.5 kg |

**Nov 17: first time squatting 100 kg** (3×3). Took a video for proof. Running base clearly helped the legs.

Next: keep squat at 100 for volume, don't chase numbers before the holidays.`,
  },
  {
    id: 'n168',
    title: 'Regex lookahead and lookbehind',
    createdAt: '2025-11-18T20:00:00Z',
    tags: ['programming', 'regex'],
    body: `# Regex lookaround

- \`(?=...)\` positive lookahead, \`(?!...)\` negative lookahead
- \`(?<=...)\` positive lookbehind, \`(?<!...)\` negative lookbehind
- Zero-width: they check but don't consume

Examples:
- Password has a digit: \`^(?=.*\\d).{8,}$\`
- Price without the currency: \`(?<=\\$)\\d+(\\.\\d{2})?\`
- Thousands separators: \`'1234567'.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',')\` → 1,234,567

JS supports lookbehind since ES2018. Safari was the last holdout (16.4). Test patterns on regex101 with the JavaScript flavor selected, the PCRE default behaves differently for some edge cases.`,
  },
  {
    id: 'n169',
    title: 'Self-review 2025',
    createdAt: '2025-11-20T03:30:00Z',
    tags: ['work', 'review'],
    body: `# Self-review 2025

## Impact
- **Atlas**: designed the itinerary API and sync layer; ETags cut app data usage by ~40%
- **Harbor**: drove the operator evaluation with Tomás, set up backups, dashboards p95 from 1.2 s to 340 ms
- **Beacon**: built the webhook consumer; owned the duplicate-invoice fix and follow-ups

## Collaboration
- Mentored Ana through her first on-call
- Ran the alert cleanup that cut pages by ~60%

## What I'd do differently
- Write docs earlier instead of after the fact
- Push back sooner when scope grows

## Next year
Cross-team ownership of the data platform; present at an external conference.`,
  },
  {
    id: 'n170',
    title: 'Gutter cleaning',
    createdAt: '2025-11-22T22:00:00Z',
    tags: ['home', 'maintenance'],
    body: `# Gutter cleaning — Nov 22

Hired **Green Gutter Co** this time instead of doing it myself on the wobbly ladder: **$180** for the whole house, front and back.

- They found the downspout by the garage clogged with a tennis ball (?!)
- Recommended gutter guards, quote $1,400 — no for now
- Schedule twice a year: late November after the leaves fall, and late spring

The backyard maple is the main culprit.`,
  },
  {
    id: 'n171',
    title: 'Costco list',
    createdAt: '2025-11-23T18:00:00Z',
    tags: ['groceries', 'list'],
    body: `# Costco list — Sunday

- [ ] Turkey 14 lb (or the fresh one from the co-op?)
- [ ] Butter ×4
- [ ] Potatoes 10 lb
- [ ] Garlic (the big bag)
- [ ] Parmesan wedge
- [ ] Paper towels, TP
- [ ] Cat litter ×2
- [ ] Olive oil 2 L
- [ ] Sparkling water
- [ ] Coffee beans? no — Herkimer's better
- [ ] Flowers for the table
- [ ] Wine ×6 for Thursday`,
  },
  {
    id: 'n172',
    title: 'Sync with the Shanghai team — Nov 25',
    createdAt: '2025-11-25T02:00:00Z',
    tags: ['work', 'meeting', 'mixed-language'],
    body: `# Sync with the Shanghai team 上海团队同步

参加: 王磊, 刘婷, Wei, me

## 背景
The Shanghai team wants to read from Harbor for their 报表 (reports). They currently export CSVs every night.

## 讨论
- 时差: 他们的早上是我们的下午, so the weekly sync is Tue 5pm PT / Wed 9am Shanghai
- Access: read-only role per team, row-level security on the tenant column
- 数据延迟可以接受 5 分钟以内
- 王磊 asked about Chinese full-text search in Postgres → zhparser extension? Wei to check if CloudNativePG images can include it.

## Todo
- [ ] Wei: test zhparser in a custom image
- [ ] 我: create the read-only role and RLS policy
- [ ] 刘婷: list the reports they need first`,
  },
  {
    id: 'n173',
    title: 'Christmas gift list 2025',
    createdAt: '2025-11-28T05:00:00Z',
    tags: ['gifts', 'christmas', 'family'],
    body: `# Christmas gifts 2025

Budget: ~$600 total.

| Person | Idea | Status |
|---|---|---|
| Sam | Merino running jacket + Japan guidebook | ✅ bought |
| Mei | Cookbook *Xi'an Famous Foods* | ✅ |
| **Lily** | **Lego Friends treehouse** + a kids' camera | ordering |
| Dana & Marco | Wine from the Sonoma vineyard where they got married | ✅ |
| Raj | Signed Ted Chiang book? | searching |
| Priya | Dog toys for Biscuit + candle | ✅ |
| Mom & Dad | (bringing gifts in person for 春节) | — |

- [ ] Wrap everything by the 20th
- [ ] Ship Mei's and Lily's to Vancouver by Dec 12`,
  },
  {
    id: 'n174',
    title: 'Roasted garlic soup',
    createdAt: '2025-11-30T01:00:00Z',
    tags: ['recipe', 'soup', 'garlic'],
    body: `# Roasted garlic soup

Cozy soup for a cold night. Serves 4.

## Roast the garlic
- 3 whole heads garlic, top sliced off, drizzle of oil, wrapped in foil
- **400°F (200°C) for 40–45 minutes**, until soft and caramel colored
- Squeeze out the cloves when cool enough to touch

## Soup
- 1 onion, 2 potatoes diced, 1 tbsp butter
- 4 cups chicken or vegetable stock
- thyme, bay leaf
- 1/2 cup cream

Sweat onion in butter, add potatoes, stock, herbs and the roasted garlic. Simmer 20 min, remove bay leaf, blend, stir in cream. Salt generously.

Top with croutons. Way milder than you'd think for 3 heads of garlic.`,
  },
  {
    id: 'n175',
    title: '春节回国计划',
    createdAt: '2025-12-02T05:00:00Z',
    tags: ['travel', '中文', 'family', 'china'],
    body: `# 2026 春节回国计划

## 航班
- 去程：**1 月 30 日** 西雅图 → 上海浦东，再坐高铁到杭州
- 回程：2 月 22 日 上海 → 西雅图
- Sam 一起去，第一次在中国过年！

## 行程
- 除夕（2 月 16 日）在爸妈家吃年夜饭
- 初二去外婆家
- 找一个周末去西湖和灵隐寺（见 [[周末杭州一日游]]）
- 带 Sam 去吃小笼包和片儿川

## 待办
- [ ] 给 Sam 办中国签证（提前一个月）
- [ ] 给爸妈、外婆准备红包
- [ ] 买礼物：给爸爸的按摩仪，给妈妈的护手霜
- [ ] 手机开通国际漫游 / 买 eSIM`,
  },
  {
    id: 'n176',
    title: '1:1 with Leah — Dec 3',
    createdAt: '2025-12-03T22:00:00Z',
    tags: ['work', '1on1'],
    body: `# 1:1 with Leah — Dec 3

## Year-end review
- Rating: **exceeds expectations**
- Highlights she called out: Atlas API work, Harbor operator choice + rollout, mentoring Ana
- Growth area: still say yes to too much; should protect focus time

## Promotion
Calibration committee thinks my packet is strong but wants one more quarter of cross-team scope. Plan: go up in the **H1 2026 cycle** with Harbor's migration complete as the headline.

## Todo
- [ ] Add Harbor outcomes (dashboards migrated, latency numbers) to the packet
- [ ] Ask Omar and Wei for peer feedback`,
  },
  {
    id: 'n177',
    title: 'Search latency incident — Dec 4',
    createdAt: '2025-12-04T19:30:00Z',
    tags: ['work', 'incident'],
    body: `# Search latency incident — Dec 4

Search API p99 went from 300 ms to 4 s for about 50 minutes.

## Timeline
- 10:12 alerts fire for search p99
- 10:20 Tomás sees Elasticsearch heap at 95% on two data nodes
- 10:35 found a new saved-search feature issuing wildcard queries on every keystroke
- 10:58 feature flag off, latency recovers

## Learnings
- Debounce in the client was missing (review miss)
- We have no per-endpoint query budget in Elasticsearch
- Load test only covered plain search

## Action items
- [ ] Me: add a 300 ms debounce and minimum 3 chars
- [ ] Tomás: slow log alerting on the search cluster`,
  },
  {
    id: 'n178',
    title: 'Node: ESM and CommonJS interop',
    createdAt: '2025-12-09T20:20:00Z',
    tags: ['programming', 'typescript', 'node'],
    body: `# Node: ESM ↔ CommonJS interop

Ran into \`ERR_REQUIRE_ESM\` when a CJS service required a package that went ESM-only.

Options:
1. Use dynamic \`await import('pkg')\` from CJS (async only)
2. Node 22+ can \`require()\` ESM graphs without top-level await (\`require(esm)\`), enabled by default in 22.12
3. Convert the service to ESM (\`"type": "module"\`)

Going ESM the other way: importing CJS from ESM works, but named exports are detected heuristically — \`import pkg from 'cjs-lib'\` then destructure if named imports fail.

\`__dirname\` doesn't exist in ESM → \`import.meta.dirname\` (Node 20.11+).`,
  },
  {
    id: 'n179',
    title: 'Miso soup',
    createdAt: '2025-12-14T03:00:00Z',
    tags: ['recipe', 'japanese', 'soup'],
    body: `# Miso soup

Simple everyday version.

## Dashi
- 1 piece kombu (10 cm) soaked in 4 cups water 30 min
- Heat until just before boiling, remove kombu
- Add a big handful of katsuobushi, off heat, steep 5 min, strain

## Soup
- Silken tofu cubes, wakame (rehydrated), scallions
- **3–4 tbsp miso**, dissolved in a ladle of dashi first
- Never boil after adding miso, it kills the aroma

White miso for mild, red for stronger. The cat, also named Miso, is very interested whenever I make this.`,
  },
  {
    id: 'n180',
    title: 'Helm vs Kustomize',
    createdAt: '2025-12-16T20:00:00Z',
    tags: ['programming', 'kubernetes'],
    body: `# Helm vs Kustomize

Where we landed for our own services:

- **Kustomize** for our services: plain YAML + overlays per environment (staging/prod), no templating language, built into \`kubectl apply -k\`
- **Helm** only for third-party things that ship charts (CloudNativePG operator, external-secrets, ingress-nginx)
- Argo CD renders both

Helm pain points: Go templates with indentation (\`nindent\`!), values files that are a second API, hard to diff.
Kustomize pain points: patches for lists are clunky, no loops.

Golden path template uses Kustomize base + overlays.`,
  },
  {
    id: 'n181',
    title: '猪肉白菜饺子',
    createdAt: '2025-12-21T04:00:00Z',
    tags: ['recipe', '中文', 'family'],
    body: `# 猪肉白菜饺子

冬至包饺子，跟妈妈视频学的，这次终于不破皮了。

## 馅
- 猪肉馅 500 克（三分肥七分瘦）
- 白菜半颗，切碎，加盐腌 15 分钟后**挤干水分**
- 葱姜水 100 毫升，分三次打进肉馅，顺一个方向搅
- 生抽、蚝油、香油、白胡椒、盐

## 皮
面粉 500 克，温水 250 克，揉成光滑的面团，醒 30 分钟。

## 煮
水开下饺子，点三次凉水，饺子都浮起来就熟了。

## 蘸料
蒜泥 + 醋 + 一点辣椒油。

Sam 包了十几个，形状很有创意 😂。剩下的冻起来当早饭。`,
  },
  {
    id: 'n182',
    title: 'Klara and the Sun — thoughts',
    createdAt: '2025-12-28T06:00:00Z',
    tags: ['books', 'fiction'],
    body: `# Klara and the Sun — Kazuo Ishiguro

⭐⭐⭐⭐ Quiet and sad.

Klara is an "Artificial Friend" bought for a sick teenage girl, Josie. Told from Klara's limited point of view — she thinks the Sun is a kind of god that heals.

What stayed with me: the question of whether a person can be "continued" by someone learning them perfectly. The mother's plan is chilling. Klara's devotion is so pure it hurts.

Book club pick for January. Expecting a good argument about the ending.`,
  },
  {
    id: 'n183',
    title: '2025 in review',
    createdAt: '2025-12-31T23:00:00Z',
    tags: ['journal', 'review'],
    body: `# 2025 in review

## Highlights
- **Half marathon** done, way under my goal time
- Lisbon with Sam, and Dana's wedding
- Harbor shipped; Beacon survived its messy cutover
- Emergency fund full
- Garden! Tomatoes, basil, a lot of sauce

## Lowlights
- September burnout
- Harbor disk incident (my alerts, my fault partly)
- Didn't call Mom and Dad every Sunday, more like every other

## Lessons
- Protect sleep and running, everything else follows
- Say no earlier

Books: 19 / 24. Japanese: ~1,400 words known.`,
  },
  {
    id: 'n184',
    title: 'New Year 2026',
    createdAt: '2026-01-01T21:00:00Z',
    tags: ['journal', 'goals'],
    body: `# Jan 1, 2026

Woke up to rain, made congee. Sam's still asleep.

## Resolutions for 2026
- Pass **JLPT N4** in July (and survive Japan in April with real conversations)
- Get promoted to staff — and then don't burn out from the scope
- Run my **first full marathon** in the fall (!)
- Video call grandma every week, not just Mom and Dad
- Write one blog post per quarter about things I learned at work
- Fewer, better things (this is the theme)`,
  },
  {
    id: 'n185',
    title: 'Chicken congee',
    createdAt: '2026-01-02T01:00:00Z',
    tags: ['recipe', 'breakfast', 'chinese'],
    body: `# Chicken congee (rice porridge)

Sick-day food, Mom's method.

- 1 cup jasmine rice, rinsed, soaked 30 min, then tossed with a little oil and salt (makes it silkier)
- 10 cups water or light stock
- 2 chicken thighs, ginger slices

Bring to a boil, add rice and chicken, simmer partly covered **1.5 hours**, stirring now and then so it doesn't stick. Shred the chicken, back in.

Toppings: scallions, white pepper, soy sauce, fried shallots, a century egg if we have one, you tiao if we're fancy.

Instant Pot version: porridge setting, 30 min, natural release.`,
  },
  {
    id: 'n186',
    title: 'Reading list 2026',
    createdAt: '2026-01-02T06:00:00Z',
    tags: ['books', 'reading-list'],
    body: `# Reading list 2026

Last year: 19 of 24 books. Not setting a number this time, just more fiction.

- [ ] Slow Productivity — Newport
- [ ] The Covenant of Water
- [ ] Educated
- [ ] Children of Time (Raj keeps asking)
- [ ] The Murderbot Diaries 1–4
- [ ] 兄弟 — 余华 (after 活着)
- [ ] Staff Engineer — Will Larson (for the promo)
- [ ] The Manager's Path
- [ ] Demon Copperhead
- [ ] James — Percival Everett

Audiobooks on runs count.`,
  },
  {
    id: 'n187',
    title: '2025 money review and 2026 plan',
    createdAt: '2026-01-04T06:00:00Z',
    tags: ['finance', 'budget', 'review'],
    body: `# 2025 money review → 2026 plan

## 2025
- Saved **$31,400** total (~23% of take-home)
- Emergency fund: **fully funded** in July 🎉
- Biggest one-off costs: Lisbon trip, car repairs, new laptop
- Net worth +18% (mostly the market, not me)

## 2026 plan
- Japan trip (already funded)
- Down payment fund: $1,500/month
- Groceries budget up to $800 (prices)
- Eating out cap $450, we never hit $400 anyway
- New: $100/month "fun money" each, no questions asked

## Todo
- [ ] Rebalance the 401k
- [ ] Update the spreadsheet categories`,
  },
  {
    id: 'n188',
    title: 'Book club 2026 schedule',
    createdAt: '2026-01-06T06:00:00Z',
    tags: ['books', 'book-club', 'friends'],
    body: `# Book club 2026

Members: Dana, Raj, Sam, Priya, Mei (remote), me. Last Sunday of the month, rotating host.

| Month | Book | Host | Picked by |
|---|---|---|---|
| Jan | Klara and the Sun | me | me |
| Feb | The Covenant of Water | Dana | Priya |
| Mar | Educated | Raj | Dana |
| Apr | *skip — Japan trip* | | |
| May | Children of Time | Sam | Raj |
| Jun | James | Priya | Sam |

Rules: finish or don't come — kidding. Snacks from the host, wine from everyone else.`,
  },
  {
    id: 'n189',
    title: 'JLPT N4 study plan',
    createdAt: '2026-01-10T04:00:00Z',
    tags: ['language', 'japanese', 'jlpt'],
    body: `# JLPT N4 — study plan

**Exam: Sunday, July 5, 2026** (registered, test site: University of Washington)

## Needs
- ~1,500 vocab, ~300 kanji, Genki II grammar
- Listening is my weakest

## Plan (26 weeks)
- Anki every day (already do it)
- Genki II: one chapter every 2 weeks with Yuki
- Listening: NHK Easy News + "Nihongo con Teppei" podcast on runs
- Kanji: WaniKani level 15 by June
- 2 practice tests: May 1 and June 15

Resist buying more textbooks. Use what I have.`,
  },
  {
    id: 'n190',
    title: 'Atlas sync — Jan 12',
    createdAt: '2026-01-12T16:30:00Z',
    tags: ['work', 'atlas', 'meeting'],
    body: `# Atlas sync — Jan 12

Attendees: Priya, Marcus, Jonas, Elena, Hannah, me

## Launch prep
- Hannah: press kit ready, app store screenshots being localized (EN, ES, JA)
- **Staged rollout**: 10% on day 1, 50% on day 3, 100% on day 7 if crash-free stays above 99.5%
- Launch-week on-call: Marcus + me primary, Tomás for infra

## Open questions
- Do we force-upgrade old native app users? → No, show a banner for 60 days then force.
- Ratings prompt: after the second completed trip

## Action items
- [ ] Me: launch dashboard in PostHog
- [ ] Elena: final regression on the release candidate
- [ ] Jonas: app icon variants`,
  },
  {
    id: 'n191',
    title: 'Kyoto ryokan booking',
    createdAt: '2026-01-18T05:00:00Z',
    tags: ['travel', 'kyoto', 'japan'],
    body: `# Kyoto ryokan booking

Booked **Arashiyama Benkei**, a ryokan on the Katsura river, for **Apr 3–6** (3 nights).

- Room with private open-air bath (rotenburo)
- Kaiseki dinner + Japanese breakfast included
- **Check-in 3pm, check-out 10am**, dinner served at 6 or 7:30 (chose 7:30)
- Free cancellation until 14 days before, then 50%
- 10 min walk from Randen Arashiyama station
- Cost: ¥98,000/night for two ≈ $650 — the big splurge of the trip

Remember: yukata at dinner is fine, tattoos in the shared bath not (we have the private one anyway).`,
  },
  {
    id: 'n192',
    title: 'Meditation log — January',
    createdAt: '2026-01-19T15:00:00Z',
    tags: ['health', 'mindfulness', 'log'],
    body: `# Meditation log — January

Trying 10 minutes every morning with the Waking Up app.

- Jan 5–11: 6/7 days. Mind all over the place, mostly thinking about the Atlas launch.
- Jan 12–18: 7/7 🎉 Noticing the urge to check the phone right after waking.
- Body scan in the evenings helps on bad days.

Effects so far: less snappy in meetings? Sam says yes. Hard to tell.

Goal: 80% of days through March.`,
  },
  {
    id: 'n193',
    title: 'Postgres: CTEs and MATERIALIZED',
    createdAt: '2026-01-20T21:00:00Z',
    tags: ['programming', 'postgres'],
    body: `# Postgres: CTE inlining

Old wisdom "CTEs are an optimization fence" is outdated:
- Since **Postgres 12**, a non-recursive CTE that's referenced once and has no side effects is **inlined** into the main query, so filters get pushed down
- Force the old behavior with \`WITH x AS MATERIALIZED (...)\` — useful when the CTE is expensive and referenced several times
- Force inlining with \`NOT MATERIALIZED\`

Saw a Harbor dashboard query go from 8 s to 300 ms just by removing an explicit MATERIALIZED someone copy-pasted.`,
  },
  {
    id: 'n194',
    title: 'Smoke and CO alarms replaced',
    createdAt: '2026-01-24T22:00:00Z',
    tags: ['home', 'safety'],
    body: `# Smoke + CO alarms

The hallway alarm started chirping at 3am (of course). Checked the date on the back: **2014** — they expire after 10 years, so all of them were due.

Replaced all 5 with **First Alert combo smoke + CO, 10-year sealed battery**:
- Each bedroom (3), hallway, basement near the furnace
- $42 each → $210
- Hardwired ones needed the adapter plug, 5 min each

Wrote the install date on each with a Sharpie: Jan 2026. Next replacement 2036.

Test button monthly (it's already on the maintenance calendar).`,
  },
  {
    id: 'n195',
    title: 'Chicken with 40 cloves of garlic',
    createdAt: '2026-01-25T01:30:00Z',
    tags: ['recipe', 'dinner', 'garlic', 'chicken'],
    body: `# Chicken with 40 cloves of garlic

Classic French braise. Serves 4.

- 8 bone-in chicken thighs, skin on
- 40 cloves garlic, peeled (buy the pre-peeled tub, life is short)
- 1 cup dry white wine, 1/2 cup stock
- thyme, rosemary

1. Brown the chicken skin-side down in a Dutch oven, 6–8 min. Set aside.
2. Add the garlic, stir 2 min.
3. Wine and stock, scrape the bottom. Chicken back on top, skin up.
4. Lid on, into the oven at **350°F for 1 hour 30 minutes**.
5. Mash a few garlic cloves into the sauce.

Serve with bread to spread the soft garlic on. Made it for Dana and Raj, huge hit.`,
  },
  {
    id: 'n196',
    title: 'Thoughts on AI coding assistants',
    createdAt: '2026-01-27T23:00:00Z',
    tags: ['journal', 'work', 'ai'],
    body: `# Thoughts on AI coding assistants after a year

Honest notes for myself.

## Where they help
- Boilerplate: tests, migrations, Kubernetes YAML
- Explaining unfamiliar code (the old invoicing system!)
- First drafts of docs that I then rewrite

## Where they hurt
- Confident wrong answers on Postgres locking behavior — would have caused an outage
- I review generated code less carefully than my own at 5pm
- Juniors skip the struggle that builds intuition (Ana pushes back on this, fairly)

## Rules I follow
- Never merge code I couldn't explain in review
- Ask for tests first, then code
- Don't paste customer data`,
  },
  {
    id: 'n197',
    title: 'Staff Engineer — notes',
    createdAt: '2026-02-01T05:00:00Z',
    tags: ['books', 'career'],
    body: `# Staff Engineer — Will Larson

Reading for the promo and after.

## Archetypes
- **Tech lead**: guides one team's approach and execution
- **Architect**: direction and quality across a critical area
- **Solver**: digs into hard problems wherever they are
- **Right hand**: extends an executive's attention

I'm mostly a tech lead drifting toward architect (Harbor).

## Other ideas
- "Work on what matters": avoid snacking (easy, low impact) and preening (visible, low impact)
- Write an engineering strategy by writing 5 design docs and extracting the common parts
- Staff projects come with sponsorship; get a sponsor, not just a mentor
- Keep a "brag document"`,
  },
  {
    id: 'n198',
    title: 'Japan trip itinerary — Kyoto + Tokyo',
    createdAt: '2026-02-05T05:30:00Z',
    tags: ['travel', 'kyoto', 'japan'],
    body: `# Japan trip — Apr 1–11

## Kyoto (Apr 1–6)
- Apr 1–3: **Hotel Gracery Kyoto Sanjo** (near Nishiki market)
- Apr 3–6: ryokan in Arashiyama (see [[Kyoto ryokan booking]])
- Fushimi Inari at 7am before the crowds
- Philosopher's Path for sakura, Nanzen-ji
- Day trip to Nara (deer!) on Apr 2
- Arashiyama bamboo grove, Tenryu-ji, Okochi Sanso

## Tokyo (Apr 6–11)
- Shinkansen Kyoto → Tokyo on Apr 6
- Staying at **Hotel Gracery Shinjuku** (the Godzilla one)
- teamLab Planets, Shimokitazawa thrift shops, Yanaka old town
- Day trip to Kamakura

Fly home from Haneda Apr 11.`,
  },
  {
    id: 'n199',
    title: '年夜饭菜单',
    createdAt: '2026-02-17T14:00:00Z',
    tags: ['family', '中文', 'food', 'china'],
    body: `# 2026 年夜饭菜单

今年我和 Sam 帮妈妈一起做年夜饭，一共十二个菜。

## 冷菜
- 白切鸡
- 酱鸭
- 凉拌海蜇

## 热菜
- 红烧鱼（年年有余，鱼不能吃完）
- 东坡肉
- 油焖大虾
- 清炒时蔬
- 八宝饭

## 汤和主食
- 腌笃鲜
- 饺子（包了硬币，Sam 吃到了！）

## 记录
外婆今年精神很好，给 Sam 包了红包。看春晚看到一半大家都困了。零点放了一点烟花。

明年想让爸妈来西雅图过年。`,
  },
  {
    id: 'n200',
    title: '周末杭州一日游',
    createdAt: '2026-02-19T12:00:00Z',
    tags: ['travel', '中文', 'china'],
    body: `# 周末杭州一日游

和 Sam、爸爸妈妈一起。

## 路线
- 早上 8 点出发，先去**灵隐寺**，人超级多，还好早到了
- 中午在楼外楼吃西湖醋鱼和东坡肉，Sam 最喜欢东坡肉
- 下午沿着苏堤骑共享单车，走到断桥
- 傍晚在湖边喝龙井茶，看日落

## 感想
十年没好好逛西湖了，变化很大，但还是那么美。爸爸走路比以前慢了，要多注意他的身体。

下次春天来，看苏堤的桃花。`,
  },
  {
    id: 'n201',
    title: 'JR Pass — worth it?',
    createdAt: '2026-02-20T04:00:00Z',
    tags: ['travel', 'japan', 'finance'],
    body: `# JR Pass: buy or not?

The 7-day Japan Rail Pass went up to **¥50,000** in 2023.

Our actual train trips:
- Kansai airport → Kyoto (Haruka): ¥3,640
- Kyoto → Nara round trip: ¥1,440
- Kyoto → Tokyo Shinkansen: ¥14,170
- Tokyo → Kamakura round trip: ¥1,880
- Tokyo city trains: IC card anyway

Total ≈ **¥21,000** per person, less than half the pass.

**Decision: not worth it**, pay per ride with Suica/ICOCA on the phone and buy the Shinkansen ticket on the SmartEX app. Sit on the right side (seat E) for Mt Fuji.`,
  },
  {
    id: 'n202',
    title: 'Week of Feb 23',
    createdAt: '2026-02-23T15:00:00Z',
    tags: ['work', 'planning'],
    body: `# Week of Feb 23

## Top 3
1. Atlas: release candidate sign-off
2. Promo packet final edits
3. Harbor: MySQL replica decommission

## Todo
- [ ] Support macros for Atlas login issues
- [ ] Renew passport? check expiry
- [x] Book the restaurant for Sam's birthday
- [ ] Taxes: gather 1099s

## Notes
Busy week. Say no to new meetings.`,
  },
  {
    id: 'n203',
    title: 'TS: generic constraints and NoInfer',
    createdAt: '2026-02-24T19:00:00Z',
    tags: ['programming', 'typescript'],
    body: `# TS: generic constraints

\`\`\`ts
function pluck<T, K extends keyof T>(items: T[], key: K): T[K][] {
  return items.map((i) => i[key]);
}
\`\`\`
\`K extends keyof T\` restricts the key to real property names and gives a precise return type.

**\`NoInfer<T>\`** (TS 5.4): stop a parameter from contributing to inference.
\`\`\`ts
function createFSM<S extends string>(states: S[], initial: NoInfer<S>) {}
createFSM(['idle', 'run'], 'jump'); // error now, before it widened S
\`\`\`

Also: default type params go after required ones, \`<T, U = T>\`.`,
  },
  {
    id: 'n204',
    title: "Sam's birthday plan",
    createdAt: '2026-02-26T05:00:00Z',
    tags: ['sam', 'birthday', 'planning'],
    body: `# Sam's birthday — Mar 14

Plan: low-key because Atlas launches the week before.

- **Dinner at Kamonegi** (soba place in Fremont) — reservation 7:30pm ✅, booked 2 weeks ahead
- Cake: black sesame chiffon from **Fuji Bakery**, pick up at 5
- Gift: **a full bike tune-up + a new Brooks saddle** — he's been complaining about the old one for a year
- Card: the Miso drawing

Invite a few friends for drinks after? Ask Dana and Raj.`,
  },
  {
    id: 'n205',
    title: 'Educated — thoughts',
    createdAt: '2026-03-01T06:00:00Z',
    tags: ['books', 'memoir'],
    body: `# Educated — Tara Westover

⭐⭐⭐⭐⭐

Memoir of growing up in a survivalist family in Idaho with no school, no doctors, a violent brother — and then teaching herself enough to get into BYU, then Cambridge and Harvard.

What hit me: how she describes memory. She shows where her memories and her siblings' memories disagree, in footnotes. Education here isn't just degrees, it's being able to see your own family from the outside.

Heavy but couldn't put it down. Book club pick for March — Dana chose it.`,
  },
  {
    id: 'n206',
    title: 'Garden plan 2026',
    createdAt: '2026-03-01T20:00:00Z',
    tags: ['garden', 'planning', 'tomatoes'],
    body: `# Garden plan 2026

## What worked in 2025
- Sungold and Cherokee Purple: repeat
- Basil next to tomatoes
- Drip irrigation on a timer

## Changes
- Drop San Marzano (too much rot, too much work) → **Amish Paste** instead for sauce
- Add a **yellow pear** cherry tomato
- Peppers in pots on the deck (hotter there)
- Second raised bed: rotate — tomatoes go to bed 2 this year

## Seed starting
- Mar 15: tomatoes, peppers under the grow light
- Apr 10: basil
- Direct sow peas this week

- [ ] Order seeds from Territorial
- [ ] New timer battery`,
  },
  {
    id: 'n207',
    title: 'Running log — week of Feb 23',
    createdAt: '2026-03-02T05:00:00Z',
    tags: ['fitness', 'running', 'log'],
    body: `# Running log — week of Feb 23

| Day | Run | Distance | Pace |
|---|---|---|---|
| Mon | easy, treadmill (rain) | 5 km | 6:00/km |
| Wed | easy | 7 km | 5:55/km |
| Sat | long | 12 km | 6:05/km |

**Total: 24 km**

Getting back into it after the China trip (ate too many dumplings). Launch week coming so keeping it easy. Considering a spring 10k.`,
  },
  {
    id: 'n208',
    title: 'Atlas launch checklist',
    createdAt: '2026-03-02T09:10:00Z',
    tags: ['work', 'atlas', 'checklist'],
    body: `# Atlas launch checklist

## Before
- [x] Release candidate signed off by Elena
- [x] App Store + Play listings approved
- [x] Feature flags: dark mode OFF, new booking flow ON
- [ ] Support team briefed (macros for login issues)
- [ ] Status page entry drafted
- [ ] Old app banner copy reviewed by Hannah

## Launch day
- [ ] Release to the first cohort at 9am PT
- [ ] Watch crash dashboard + PostHog funnel every hour
- [ ] War room channel #atlas-launch

## After
- [ ] Retro scheduled for two weeks later
- [ ] Thank-you note to the beta users`,
  },
  {
    id: 'n209',
    title: 'Passport renewal',
    createdAt: '2026-03-03T18:00:00Z',
    tags: ['admin', 'travel', 'documents'],
    body: `# Passport renewal

Noticed my passport expires **Jul 14, 2026** — Japan is fine (valid for the stay), but Vancouver in June would be cutting it close, and some airlines want 6 months.

- Renewed **online** through travel.state.gov, submitted Mar 3
- Fee $130 + **$60 expedited**
- New photo at Walgreens ($17) — glasses off!
- Status: "in process" → approved Mar 20, card and book arrived **Mar 27**

Old passport gets cancelled — make sure the Japan hotel bookings use the new number.`,
  },
  {
    id: 'n210',
    title: 'Kubernetes: zero-downtime rolling updates',
    createdAt: '2026-03-05T18:30:00Z',
    tags: ['programming', 'kubernetes'],
    body: `# Zero-downtime rolling updates

Settings we use for web services:
\`\`\`yaml
strategy:
  rollingUpdate: { maxSurge: 25%, maxUnavailable: 0 }
\`\`\`
- \`maxUnavailable: 0\` → never go below desired capacity during a deploy
- Readiness probe must be correct or new pods get traffic too early
- \`preStop\` hook with \`sleep 10\` so the load balancer removes the pod before it gets SIGTERM
- App handles SIGTERM: stop accepting, finish in-flight, exit. \`terminationGracePeriodSeconds: 30\`
- **PodDisruptionBudget** \`minAvailable: 2\` protects against node drains taking everything down`,
  },
  {
    id: 'n211',
    title: 'Atlas launch day',
    createdAt: '2026-03-10T06:00:00Z',
    tags: ['journal', 'work', 'atlas'],
    body: `# Mar 9 — Atlas launch day

It's live! Released to the first cohort at 9am. Watched dashboards all day in the war room channel.

- One currency formatting bug for users in Switzerland — caught at the first cohort, fixed in a hotfix by 2pm
- Support got ~40 tickets, mostly "where is dark mode?" 😅
- Priya ordered cake for the whole team

Marcus and I high-fived at 6pm when the crash dashboard was still green. A year of work. Home by 8, Sam had champagne ready.`,
  },
  {
    id: 'n212',
    title: 'PgBouncer pooling modes',
    createdAt: '2026-03-10T20:00:00Z',
    tags: ['programming', 'postgres'],
    body: `# PgBouncer pooling modes

- **session**: a server connection per client session. Safe, but no real pooling gain for long-lived clients.
- **transaction**: the server connection is returned to the pool after each transaction. Best throughput.
- **statement**: even stricter, no multi-statement transactions.

What breaks in transaction mode (anything with session state):
- \`SET\` / \`RESET\` of session variables (use \`SET LOCAL\` inside the transaction)
- Session-level advisory locks
- \`LISTEN\`/\`NOTIFY\`
- Named prepared statements (unless PgBouncer ≥ 1.21 with \`max_prepared_statements\`)
- Temp tables that outlive a transaction

Sizing: \`default_pool_size\` × number of databases/users must stay under \`max_connections\`.`,
  },
  {
    id: 'n213',
    title: 'Taxes 2025 — meeting with the accountant',
    createdAt: '2026-03-14T05:00:00Z',
    tags: ['finance', 'taxes'],
    body: `# Taxes for 2025 — accountant meeting

Decided to use an accountant this year: **Karen Liu, CPA**, $650 flat fee. Too many moving parts (RSUs, ESPP, the Roth conversion, Sam's freelance income).

## What she said
- Sam needs to pay **quarterly estimated taxes** for the freelance work from now on, the penalty for last year is small
- RSU withholding at 22% is too low for our bracket → expect to owe ~$4k
- Keep the backdoor Roth, 8606 is correct
- Home office deduction for Sam: simplified method, $5/sq ft

## Todo
- [ ] Upload all docs to her portal by Mar 21
- [ ] Set up quarterly payments on IRS Direct Pay (Apr 15, Jun 15, Sep 15, Jan 15)`,
  },
  {
    id: 'n214',
    title: 'Japanese phrases for the Japan trip',
    createdAt: '2026-03-15T05:00:00Z',
    tags: ['language', 'japanese', 'travel', 'mixed-language'],
    body: `# Japanese phrases for the trip

## Restaurants
- 二人です (futari desu) — two people
- おすすめは何ですか？ — what do you recommend?
- **お会計お願いします (o-kaikei onegaishimasu)** — the check, please. Or cross your index fingers in an X.
- ごちそうさまでした — thanks for the meal (say it when leaving)

## Getting around
- 〜はどこですか？ — where is …?
- この電車は京都に行きますか？ — does this train go to Kyoto?
- すみません — excuse me / sorry / thanks, all-purpose

## Ryokan
- チェックインお願いします
- 夕食は何時ですか？ — what time is dinner?

Practiced all of these with Yuki last lesson.`,
  },
  {
    id: 'n215',
    title: 'Garlic noodles',
    createdAt: '2026-03-22T02:30:00Z',
    tags: ['recipe', 'dinner', 'garlic', 'noodles'],
    body: `# Garlic noodles (SF style)

Tastes like the ones from Thanh Long, close enough.

- 250 g thick egg noodles
- 4 tbsp butter
- **10 cloves garlic**, minced
- 1 tbsp oyster sauce, 1 tsp fish sauce, 1 tsp sugar
- 1/4 cup grated parmesan
- scallions

Boil noodles. Melt butter, add garlic, stir 2 minutes until fragrant. Oyster sauce, fish sauce, sugar. Toss the noodles in with a splash of noodle water, then the parmesan. Scallions on top.

Goes great with the [[Garlic butter shrimp]] — a full garlic dinner, Sam approves.`,
  },
  {
    id: 'n216',
    title: 'Atlas launch retro',
    createdAt: '2026-03-23T17:00:00Z',
    tags: ['work', 'atlas', 'meeting', 'retro'],
    body: `# Atlas launch retro

## What went well
- Launch itself was boring (in a good way). Crash-free 99.6% in week one.
- App Store rating 4.6 after 2,100 ratings
- The staged rollout caught a currency formatting bug at the first cohort

## What didn't
- We underestimated the booking flow — it ate two months more than planned
- Beta feedback triage was ad hoc until October
- Too many people in the syncs by the end (7+)

## Try next time
- Smaller decision meetings, wider FYI notes
- Budget QA time per screen, not per feature
- Start store-review-dependent work earlier

Overall: proud of this one.`,
  },
  {
    id: 'n217',
    title: 'Budget review — March 2026',
    createdAt: '2026-04-04T05:00:00Z',
    tags: ['finance', 'budget'],
    body: `# Budget review — March 2026

| Category | Budget | Actual |
|---|---|---|
| Mortgage | 2,850 | 2,850 |
| Groceries | 800 | **775** |
| Eating out | 450 | 590 (Sam's birthday, launch celebrations) |
| Utilities + internet | 280 | 260 |
| Transport | 200 | 120 |
| Subscriptions | 60 | 52 |
| Fun money | 200 | 200 |
| Taxes (accountant fee) | — | 650 |

**Saved: $2,700** + Japan fund already set aside.

Notes: first full quarter of the new budget. The fun money rule works — no more guilt-shopping arguments.`,
  },
  {
    id: 'n218',
    title: 'Last day in Japan',
    createdAt: '2026-04-11T08:00:00Z',
    tags: ['journal', 'travel', 'japan'],
    body: `# Apr 11 — last day in Japan

Writing this at Haneda waiting for the flight home.

Ten days felt like a month. The sakura in Kyoto were at full bloom on the Philosopher's Path, like the trip was planned by someone who knew. The ryokan was the best two nights… three nights… whatever, best part. Sam wants to move to Kyoto.

My Japanese was enough for restaurants, trains and small talk with the ryokan staff. The okami said my accent was good (she was being nice).

Sad to leave. Already making a list for next time: Hokkaido in winter? Okinawa?`,
  },
  {
    id: 'n219',
    title: 'Japan trip — food we loved',
    createdAt: '2026-04-13T04:00:00Z',
    tags: ['travel', 'kyoto', 'japan', 'food'],
    body: `# Japan trip — food highlights

- **Kaiseki at the ryokan**: 9 courses, the bamboo shoot (takenoko) dish was unreal, it was the season
- **Nishiki market**: tamagoyaki on a stick, soy milk donuts
- **Yudofu** near Nanzen-ji — simmered tofu, surprisingly satisfying
- **Ippudo** ramen in Kyoto was fine, but **Fuunji** tsukemen in Shinjuku — best thing we ate in Tokyo
- Konbini egg sandwich at 11pm, every night
- **Matcha everything** in Uji? didn't make it, next time

Sam's favorite: the wagyu sando in Nishiki. Mine: the ryokan breakfast with grilled fish and miso soup by the river.`,
  },
  {
    id: 'n220',
    title: 'Japan trip costs',
    createdAt: '2026-04-14T05:00:00Z',
    tags: ['travel', 'japan', 'finance'],
    body: `# Japan trip — what it cost (2 people, 10 nights)

| Item | USD |
|---|---|
| Flights SEA–KIX, HND–SEA | 2,380 |
| Hotels Kyoto + Tokyo (7 nights) | 1,510 |
| Ryokan (3 nights, half board) | 1,950 |
| Food & drinks | 1,120 |
| Trains + IC cards | 420 |
| Temples, teamLab, museums | 180 |
| Shopping (knives, ceramics, books) | 640 |
| **Total** | **8,200** |

Over the $6,000 trip fund — the ryokan and shopping. Worth it. Paid the rest from the fun budget over two months.

Tip for next time: the yen was weak, should've bought more ceramics 🙃`,
  },
  {
    id: 'n221',
    title: 'Promoted!',
    createdAt: '2026-04-21T03:00:00Z',
    tags: ['journal', 'work', 'career'],
    body: `# Apr 20 — promoted to staff engineer!

Leah called me into a "quick chat" at 3pm and told me the promotion committee approved it: **Staff Engineer, effective May 1**.

What made the case, according to her: Harbor (cross-team data platform), the Atlas API work, and mentoring Ana and Dev.

Called Mom right away (6am in Hangzhou, she didn't mind). Sam took me out to the Korean place.

Slightly scared of the scope. Rule for myself: no more than two big projects at a time.`,
  },
  {
    id: 'n222',
    title: 'Garage shelves',
    createdAt: '2026-04-26T22:00:00Z',
    tags: ['home', 'diy'],
    body: `# Garage shelves

Built wall shelving along the left wall of the garage.

- 2×4 frame + 3/4" plywood shelves, 3 levels, 8 ft long, 24" deep
- Anchored to studs every 16" with 3" structural screws
- Lumber ~$260 at Dunn, had the rest
- Took Saturday + half of Sunday

Now: bikes on hooks, camping gear in labeled bins on the top shelf, paint and garden stuff at the bottom. Can finally park the Honda inside again.

- [ ] Label the bins
- [ ] Hook for the ladder`,
  },
  {
    id: 'n223',
    title: 'Vitest tips',
    createdAt: '2026-04-28T19:00:00Z',
    tags: ['programming', 'typescript', 'testing'],
    body: `# Vitest tips

- \`vi.useFakeTimers()\` + \`vi.advanceTimersByTimeAsync(1000)\` for debounce tests (the async one flushes promises too)
- \`vi.mock('./mod.js', async (orig) => ({ ...(await orig()), fn: vi.fn() }))\` to partially mock a module
- \`expect.poll(() => value).toBe(x)\` instead of hand-written wait loops
- \`test.each\` with a table for many cases
- \`--project node\` in a workspace to run one project
- Snapshot only small, stable things; big snapshots get rubber-stamped

Used fake timers for the search debounce fix from the December incident.`,
  },
  {
    id: 'n224',
    title: 'Slow Productivity — notes',
    createdAt: '2026-05-02T05:00:00Z',
    tags: ['books', 'productivity', 'nonfiction'],
    body: `# Slow Productivity — Cal Newport

⭐⭐⭐⭐ Newport's calmer follow-up. Read most of it on the flights to and from Japan.

## Three principles
1. **Do fewer things** — limit active projects; every commitment carries an "overhead tax" of meetings and email. Keep a holding list for everything else.
2. **Work at a natural pace** — plan projects over longer timelines, have seasons of intensity and rest
3. **Obsess over quality** — the thing that actually gets you freedom later

## Notes to self
- Bigger scope at work is going to tempt me to say yes to everything. Max 2 big projects at a time.
- Quarterly plan instead of weekly heroics`,
  },
  {
    id: 'n225',
    title: 'Sunday at the market',
    createdAt: '2026-05-17T23:00:00Z',
    tags: ['journal'],
    body: `# May 17 — Sunday

Ballard farmers market in the morning: first strawberries of the year, rhubarb, a huge bunch of peonies for Sam.

Planted this year's tomatoes (same varieties as last year + a yellow pear one). Garlic from October looks great, scapes coming soon.

Afternoon run 10 km along the canal, easy pace. Felt good for the first time since Japan.

Evening: finished Children of Time for book club. Raj was right about the spiders.`,
  },
  {
    id: 'n226',
    title: 'First marathon — thinking about it',
    createdAt: '2026-05-25T04:00:00Z',
    tags: ['fitness', 'running', 'plan'],
    body: `# First marathon?

Options for fall 2026:
- **Portland Marathon**, Oct 4 — flat-ish, close, popular first marathon
- Victoria again (full this time), Oct 11 — I know the course from the half
- Chicago via lottery — didn't apply, too late

Leaning Portland. Training would start mid-June, 18 weeks, peak at 55–60 km/week, long runs up to 32 km.

Concerns:
- Knee history — keep doing the strength work, never skip the cutback weeks
- Time: long runs of 3 hours on Saturdays → talk to Sam
- JLPT in July overlaps with the build phase

Decide by June 1.`,
  },
  {
    id: 'n227',
    title: 'Vancouver weekend plan',
    createdAt: '2026-05-28T03:00:00Z',
    tags: ['travel', 'vancouver'],
    body: `# Vancouver weekend — Jun 12–14

Driving up Friday after work, border at Peace Arch (check wait times, use NEXUS lane? we don't have it).

## Stay
Airbnb in Mount Pleasant.

## Ideas
- Stanley Park seawall by bike (rent near Denman St)
- Granville Island market for lunch
- Dim sum in Richmond — Sam's request
- Lynn Canyon suspension bridge (free, unlike Capilano)
- Kitsilano beach if it's warm

## Todo
- [ ] Passports (Sam's expires in August, still OK)
- [ ] Tell the cat sitter
- [ ] Canadian data plan or roaming`,
  },
  {
    id: 'n228',
    title: 'Turning 34',
    createdAt: '2026-06-08T05:00:00Z',
    tags: ['journal', 'birthday'],
    body: `# Jun 7 — 34

Birthday! Sam organized a surprise picnic at Golden Gardens with Dana, Marco, Raj, Priya and Biscuit the corgi.

Gifts: a Japanese knife from Sam (!!), a plant from Priya (a calathea, pray for it), and Raj gave me a signed copy of Children of Time.

Mom and Dad sang on video with Lily and Mei joining from Vancouver. Lily had drawn me a picture of Miso.

Watched the sunset over the Sound. 34 looks fine so far.`,
  },
  // Everyday notes in Chinese, in near-duplicate clusters of their own (checkups, rent,
  // renovation, home cooking, a Chengdu trip, the Shanghai team's meetings, Lily's school).
  {
    id: 'n229',
    title: '妈妈的体检报告',
    createdAt: '2025-11-08T13:00:00Z',
    tags: ['health', '中文', 'family'],
    body: `# 妈妈的体检报告

妈妈上周在杭州做了单位组织的年度体检，今天把报告拍照发给我了。

- 甲状腺：右侧有一个 0.6 cm 的结节，TI-RADS 3 类，医生说半年后复查 B 超就行
- 血脂：总胆固醇 6.2，低密度脂蛋白偏高
- 骨密度：骨量减少，还不到骨质疏松
- 血压、血糖都正常

医生建议每天补钙和维生素 D，多晒太阳，少吃油炸的东西。

我跟她说春节回去陪她一起去复查。她一直说"没事没事"，但听得出来有点担心。`,
  },
  {
    id: 'n230',
    title: '爸爸的体检复查',
    createdAt: '2026-03-08T13:00:00Z',
    tags: ['health', '中文', 'family'],
    body: `# 爸爸的体检复查

春节以后爸爸去医院复查，妈妈在电话里讲了结果：

- 血压控制得不错，最近一个月平均 132/84，氨氯地平继续吃
- 做了胃镜，发现一个小息肉，当场切掉了，病理结果是良性的 🙏
- 尿酸有点高，医生让他少喝啤酒、少吃海鲜
- 一年以后再做一次胃镜

爸爸说以后每年都认真体检。妈妈说他戒酒只坚持了一个星期。`,
  },
  {
    id: 'n231',
    title: '回国顺便体检',
    createdAt: '2025-12-20T06:00:00Z',
    tags: ['health', '中文', 'china'],
    body: `# 回国顺便体检

国内体检便宜又快，趁春节回杭州给自己做一次全面检查。

- 机构：美年大健康，离爸妈家最近的那家
- 套餐 ¥1,280：血常规、肝肾功能、甲状腺 B 超、胸部 CT、胃镜（无痛的要另加 ¥600）
- 时间：2 月 5 日早上 7:30，**要空腹**，前一天晚上 10 点以后不能吃东西
- 带护照，用支付宝付款

Sam 也想做，不过他的 insurance 不报销国外的检查，先问清楚再说。`,
  },
  {
    id: 'n232',
    title: '外婆的老房子出租',
    createdAt: '2025-08-20T12:00:00Z',
    tags: ['family', '中文', 'finance'],
    body: `# 外婆的老房子出租

外婆搬去和舅舅一起住以后，拱墅区的老房子一直空着。爸爸说租出去，租金每个月给外婆当生活费。

- 两室一厅，62 平，六楼没有电梯
- 中介挂牌 3,500 一个月，最后 3,300 租给了一对在附近上班的年轻夫妻
- 押一付三，合同签一年
- 中介费是一个月房租，房东和租客各付一半
- 热水器太旧了，签合同之前换了一台新的（¥1,800）

爸爸每个月过去一趟，顺便看看水电燃气的账单。租客有事直接在微信上找他。`,
  },
  {
    id: 'n233',
    title: '表妹在上海找房子',
    createdAt: '2025-09-06T12:00:00Z',
    tags: ['family', '中文'],
    body: `# 表妹在上海找房子

小雨研究生毕业，去上海一家 fintech 公司上班，在微信上问我租房的意见。她看中了两套：

1. 徐汇的一室户，月租 6,800，走路 10 分钟到公司，但是老小区，采光差
2. 浦东的两室合租，月租 4,200，坐地铁 40 分钟，室友是陌生人

我的建议：第一年预算够的话就住近一点，通勤省下来的时间最值钱。她最后选了徐汇那套，押一付三，一次交了 27,200。

提醒她：签合同之前把房子里的家具和墙面都拍照留底，退租的时候扯皮用得上。`,
  },
  {
    id: 'n234',
    title: '小雨续租',
    createdAt: '2026-05-10T12:00:00Z',
    tags: ['family', '中文'],
    body: `# 小雨续租

小雨的房东说续租要从 6,800 涨到 7,300，她来问我要不要搬。

帮她算了一下：搬家费、新的中介费，再加上请假看房，差不多要花掉一个月的房租，还不如接受。最后跟房东谈到 7,000，条件是把坏了的空调换掉。

新合同还是一年，押一付三。`,
  },
  {
    id: 'n235',
    title: '爸妈家厨房装修',
    createdAt: '2025-09-25T12:00:00Z',
    tags: ['home', '中文', 'family'],
    body: `# 爸妈家厨房装修

爸妈家的厨房还是二十年前的样子，这次趁国庆开始翻新，我在这边帮忙比价。

## 选好的
- 橱柜：欧派定制，¥18,000
- 台面：白色石英石，不要大理石（容易渗色）
- 油烟机 + 燃气灶：方太一套 ¥7,600，妈妈说吸力一定要大
- 水槽：304 不锈钢单槽，大一点好洗锅
- 墙砖：浅灰色小方砖

## 工期
10 月 1 日开工，预计 5 周。装修期间爸妈用电磁炉凑合做饭。

陈工长每天在微信群里发进度照片。`,
  },
  {
    id: 'n236',
    title: '爸妈家卫生间装修',
    createdAt: '2025-11-12T12:00:00Z',
    tags: ['home', '中文', 'family'],
    body: `# 爸妈家卫生间装修

厨房弄完接着弄卫生间，主要是为了外婆来住的时候方便。

- 淋浴房改成**无门槛**的，地面换防滑砖
- 马桶旁边和淋浴区各装一个扶手
- 防水刷两遍，做了 48 小时闭水试验，楼下邻居确认没漏水才贴砖
- 智能马桶盖：TOTO 的，爸爸一开始嫌贵，用了以后天天夸
- 热水器换成恒温的燃气热水器

一共花了 ¥32,000，比预算多了 4,000，多出来的主要是扶手和马桶盖。`,
  },
  {
    id: 'n237',
    title: '装修费用汇总',
    createdAt: '2025-12-06T12:00:00Z',
    tags: ['home', '中文', 'finance'],
    body: `# 装修费用汇总

厨房和卫生间都弄完了，跟爸妈对了一下账：

| 项目 | 花费 |
|---|---|
| 厨房 | ¥46,500 |
| 卫生间 | ¥32,000 |
| 垃圾清运、开荒保洁 | ¥1,200 |
| **合计** | **¥79,700** |

我出了 ¥30,000，算是给他们的新年礼物，剩下的他们自己出。

教训：合同里一定要写清楚尾款验收以后再付。陈工长拖了一个星期才把柜门的缝调好。`,
  },
  {
    id: 'n238',
    title: '番茄炒蛋',
    createdAt: '2025-10-27T03:00:00Z',
    tags: ['recipe', '中文'],
    body: `# 番茄炒蛋

最简单的家常菜，但 Sam 总说我做的比餐馆的好吃，记一下做法。

- 番茄 2 个，要熟透的
- 鸡蛋 3 个，加一点盐打散
- 糖 1 小勺，盐，葱花

1. 番茄顶上划十字，开水烫一下去皮，切块。
2. 油热了倒蛋液，**半凝固就盛出来**，不要炒老。
3. 再放一点油，番茄下锅炒出汁，加糖和盐。
4. 鸡蛋倒回去翻几下，撒葱花。

秘诀：番茄一定要炒出汁，汁不够就加两勺水。拌米饭一绝。`,
  },
  {
    id: 'n239',
    title: '可乐鸡翅',
    createdAt: '2026-01-11T03:00:00Z',
    tags: ['recipe', '中文', 'dinner'],
    body: `# 可乐鸡翅

Lily 来西雅图玩的时候点名要吃的，小孩都喜欢。

- 鸡中翅 12 个，两面各划两刀
- 可乐一罐（330 ml，别用零度的，没有糖收不了汁）
- 生抽 2 勺，老抽半勺，姜片，料酒

1. 鸡翅冷水下锅，加料酒焯水，捞出擦干。
2. 少放油，鸡翅煎到两面金黄。
3. 加姜片、生抽、老抽，倒入整罐可乐，没过鸡翅。
4. 大火烧开，转中小火 **20 分钟**，最后大火收汁。

Lily 一个人吃了五个。下次试试先用 air fryer 把皮烤脆。`,
  },
  {
    id: 'n240',
    title: '糖醋排骨',
    createdAt: '2026-02-21T03:00:00Z',
    tags: ['recipe', '中文', 'family'],
    body: `# 糖醋排骨

妈妈的另一个拿手菜，过年在家跟她学的。口诀是"一二三四五"：

- 小排 500 克，剁成小段
- 料酒 1 勺、老抽 2 勺、香醋 3 勺、白糖 4 勺、水 5 勺

1. 排骨焯水，捞出沥干。
2. 油稍微多放一点，把排骨煎到表面焦黄。
3. 倒入调好的汁，大火烧开。
4. 转小火焖 **25 分钟**，最后大火收汁，撒白芝麻。

妈妈说醋要用镇江香醋，别用白醋。放凉了也好吃，可以当冷菜。`,
  },
  {
    id: 'n241',
    title: '国庆带爸妈去成都',
    createdAt: '2026-05-30T12:00:00Z',
    tags: ['travel', '中文', 'china', 'family'],
    body: `# 国庆带爸妈去成都

10 月 1 日到 5 日，爸妈从杭州飞过去，我和 Sam 从上海转机，在成都会合。

## 行程
- 第一天：到了先逛宽窄巷子，晚上吃火锅（爸爸不能吃太辣，点鸳鸯锅）
- 第二天：**大熊猫繁育研究基地**，一定要早上 7:30 到，熊猫上午才活跃
- 第三天：都江堰 + 青城山，包车一天 ¥600
- 第四天：人民公园喝盖碗茶、掏耳朵，晚上逛锦里
- 第五天：回程

## 住
春熙路附近的酒店，订两间房，离地铁近，爸爸可以少走路。`,
  },
  {
    id: 'n242',
    title: '成都要吃的',
    createdAt: '2026-06-02T12:00:00Z',
    tags: ['travel', '中文', 'food'],
    body: `# 成都要吃的

同事刘婷是成都人，给了我一张清单：

- 火锅：小龙坎或者大龙燚，排队的话用大众点评提前取号
- 钟水饺、龙抄手、担担面
- 冒菜和串串香
- 甜水面（刘婷最推荐）
- 蛋烘糕当早饭
- 兔头，Sam 说他不敢

刘婷说点菜的时候说"微辣"就行，本地的微辣对我们来说已经很辣了。`,
  },
  {
    id: 'n243',
    title: '上海团队周会 — 12 月 9 日',
    createdAt: '2025-12-10T02:00:00Z',
    tags: ['work', 'meeting', '中文', 'mixed-language'],
    body: `# 上海团队周会 12 月 9 日

参加：王磊、刘婷、Wei、我

- zhparser 在 CloudNativePG 的自定义镜像里测试通过了，中文分词效果不错，"数据仓库"能正确切成一个词
- 只读账号已经建好，RLS 按 tenant 隔离，刘婷测了三张报表，数字都对得上
- 问题：他们早上 9 点（我们这边下午 5 点）的查询经常很慢，正好撞上我们的 Debezium 回填任务
- 决定：回填任务改到太平洋时间凌晨 2 点跑

## 待办
- [ ] Wei：把 zhparser 镜像推到生产
- [ ] 我：改回填任务的时间
- [ ] 王磊：整理下一批要迁移的报表`,
  },
  {
    id: 'n244',
    title: '上海团队周会 — 1 月 13 日',
    createdAt: '2026-01-14T02:00:00Z',
    tags: ['work', 'meeting', '中文'],
    body: `# 上海团队周会 1 月 13 日

参加：王磊、刘婷、我（Wei 请假）

- 第二批 12 张报表已经从每晚导出 CSV 切换到直接查 Harbor，财务那边很满意
- 刘婷反馈有两张报表的金额差了几分钱，查下来是汇率四舍五入的问题，两边保留的小数位数不一样
- 春节前后两周暂停新需求，1 月 23 日是节前最后一次上线
- 王磊问能不能给他们写权限建临时表 → 暂时不行，先单独给一个 sandbox schema

下次周会春节以后再开。`,
  },
  {
    id: 'n245',
    title: 'Lily 的周末中文学校',
    createdAt: '2025-09-28T05:00:00Z',
    tags: ['family', '中文', 'lily'],
    body: `# Lily 的周末中文学校

姐姐给 Lily 报了列治文的周末中文学校，每个星期六上午 9 点到 12 点。

- 学费一个学期 CAD 480，书本费另算
- 教简体字，一年级开始学拼音
- Lily 一开始哭着不想去，因为她的好朋友周六都去踢足球
- 第三个星期交到了新朋友，现在每周都盼着去

姐姐说她在家只肯说英文，希望上了中文学校能跟外公外婆多说几句。我答应每次视频都用中文跟她聊。`,
  },
  {
    id: 'n246',
    title: 'Lily 的家长会',
    createdAt: '2025-11-21T05:00:00Z',
    tags: ['family', '中文', 'lily', 'mixed-language'],
    body: `# Lily 的家长会

姐姐去开了 Lily 二年级的 parent-teacher conference，晚上打电话跟我说了情况：

- 阅读很好，已经在读 chapter books，老师说超过了年级水平
- 数学应用题比较吃力，题目看得太快
- 上课有时候跟同桌讲话，但是很愿意帮助别的小朋友
- 老师建议每天在家读 20 分钟书，周末做一点数学练习

report card 上写的是 "meeting expectations"，姐姐有点失望，我觉得已经很好了。Lily 说她最喜欢美术课和 library time。`,
  },
  {
    id: 'n247',
    title: 'Lily 中文学校期末表演',
    createdAt: '2026-01-25T05:00:00Z',
    tags: ['family', '中文', 'lily'],
    body: `# Lily 中文学校期末表演

姐姐发来了视频：Lily 在中文学校的期末表演上背了《静夜思》，一个字都没错！

- 第一学期成绩：听说 A，认字 B+
- 老师说她的声调比班上别的孩子准，大概是每周跟外公外婆视频练出来的
- 下学期学费涨到 CAD 520
- 姐姐在考虑要不要再加一个星期三下午的书法课

妈妈看了视频高兴得不得了，马上转发到了家族群里。`,
  },
  // A second batch, the way one person's notes really pile up: the app's welcome note and notes
  // of generic words, many short ones (lists, numbers, passwords, a quote, a link, half a
  // thought), other life areas (pets, the car, home admin, insurance, hobbies, a D&D campaign, a
  // side project, 1:1s, a job search) and near-duplicates that differ in one detail (grocery
  // lists, 1:1s, dentist visits, D&D sessions, weekly reports), with more notes in Chinese and
  // mixed-language ones.
  {
    id: 'n248',
    title: 'Hello – My first note',
    createdAt: '2024-04-02T19:12:00Z',
    tags: [],
    body: `# Hello – My first note

Welcome to Noted! This is your first note. Write down anything here: ideas, lists, things you want to remember.

- Use **#** for headings and **-** for lists
- Link notes with [[double brackets]]
- Add tags to find your notes later
- Everything syncs across your devices

Tip: start small. Write one note today and another one tomorrow.`,
  },
  {
    id: 'n249',
    title: 'Untitled',
    createdAt: '2024-04-02T19:20:00Z',
    tags: [],
    body: `test

does this sync to the phone? typing on the laptop`,
  },
  {
    id: 'n250',
    title: 'Ideas',
    createdAt: '2024-05-11T04:30:00Z',
    tags: ['ideas'],
    body: `# Ideas

Random ideas, write them down before they're gone:
- an idea for a note about ideas (meta, lol)
- write more, think less about where it goes
- a list of the things I always forget
- something about what Raj said at dinner — what was it??
- ideas for a blog: ?`,
  },
  {
    id: 'n251',
    title: 'Things to remember',
    createdAt: '2024-06-02T05:00:00Z',
    tags: ['list'],
    body: `# Things to remember

- Write it down the moment you think of it
- One note per thing, not one giant note
- Review the list every Sunday
- If it takes less than two minutes, don't write it down, just do it
- Remember to actually read the notes I write`,
  },
  {
    id: 'n252',
    title: 'Note to self',
    createdAt: '2025-02-09T06:10:00Z',
    tags: [],
    body: `Stop starting new notes for the same thing. Search first, then write.`,
  },
  {
    id: 'n253',
    title: 'How I use this app',
    createdAt: '2025-08-30T17:00:00Z',
    tags: ['meta'],
    body: `# How I use this app

A year and a half in, my system:
- **Inbox**: everything goes into a new note first, no title needed
- Sunday: give each note a title and a tag or two, delete what I don't need
- Lists live in their own notes (groceries, packing, gifts)
- Journal entries get the date as the title
- Work notes: one per meeting, project name first

Rule: if I can't find a note by searching, the title was bad.`,
  },
  {
    id: 'n254',
    title: 'Groceries',
    createdAt: '2025-03-15T17:40:00Z',
    tags: ['groceries', 'list'],
    body: `Groceries: oat milk, eggs, spinach, coffee filters, bananas, dish soap`,
  },
  {
    id: 'n255',
    title: 'Groceries',
    createdAt: '2025-04-12T18:05:00Z',
    tags: ['groceries', 'list'],
    body: `- oat milk ×2
- eggs
- kale (they were out of spinach)
- tortillas, limes, cilantro
- cat food — Tiki Cat chicken, 12 cans
- toothpaste`,
  },
  {
    id: 'n256',
    title: 'H Mart',
    createdAt: '2025-10-18T18:30:00Z',
    tags: ['groceries', 'list'],
    body: `H Mart run (Lynnwood):
- gochujang, the big tub
- frozen mandu ×2
- napa cabbage
- rice, 15 lb bag (the Korean brand Sam likes, not Nishiki)
- tofu ×2, scallions, garlic
- Shaoxing wine
- honey butter chips for Sam`,
  },
  {
    id: 'n257',
    title: '买菜',
    createdAt: '2026-01-10T19:00:00Z',
    tags: ['groceries', '中文'],
    body: `买菜：五花肉一斤、冰糖、小葱、姜、嫩豆腐两盒、上海青、鸡蛋一盒、镇江香醋`,
  },
  {
    id: 'n258',
    title: "Trader Joe's",
    createdAt: '2025-12-13T19:15:00Z',
    tags: ['groceries', 'list'],
    body: `TJ's: frozen gyoza, mandarin orange chicken, everything bagel seasoning, sparkling water, dark chocolate almonds, the $5 tulips, pita chips`,
  },
  {
    id: 'n259',
    title: 'Plumber',
    createdAt: '2024-11-19T22:00:00Z',
    tags: ['home', 'contacts'],
    body: `Plumber: **Mike at Ballard Plumbing & Drain**, (206) 555-0148. Came the same day for the main line clog (tree roots), $385 to snake it. Ask for Mike, he explains things. He says to scope the sewer line with a camera in 2 years.`,
  },
  {
    id: 'n260',
    title: 'Electrical panel quotes',
    createdAt: '2025-07-19T21:00:00Z',
    tags: ['home', 'electrical'],
    body: `# Panel upgrade quotes

We need a 200 A panel before an EV charger or a heat pump is possible.

| | Quote | Notes |
|---|---|---|
| Sparky's Electric | $3,900 | permit included, 1 day, can start in September |
| Lumen Electric | $4,600 | includes a surge protector |
| Brightline | $5,250 | "might need a new meter base" |

Leaning Sparky's. City Light has to come and disconnect the power; they schedule that 2–3 weeks out.`,
  },
  {
    id: 'n261',
    title: 'Trash day',
    createdAt: '2025-01-07T03:00:00Z',
    tags: ['home'],
    body: `Garbage every Tuesday. Recycling + yard waste every other Tuesday (even weeks). Bins out Monday night, the truck comes around 7. After a holiday everything shifts one day later.`,
  },
  {
    id: 'n262',
    title: 'Cabin wifi + lockbox',
    createdAt: '2026-05-22T03:00:00Z',
    tags: ['travel', 'cabin', 'passwords'],
    body: `Dana's parents' cabin in Langley

- Wifi: **LangleyLoft** / pw: driftwood2019
- Router is in the cupboard under the stairs, unplug + replug if it's slow
- Key lockbox on the porch railing: **4471**
- Wood stove: open the flue first!!
- Septic: nothing but TP down the toilet`,
  },
  {
    id: 'n263',
    title: '爸妈家的 wifi',
    createdAt: '2026-01-31T12:00:00Z',
    tags: ['中文', 'family', 'passwords'],
    body: `爸妈家的 wifi：TP-LINK_8A3F，密码 hz19600903（爸爸的生日）。路由器在电视柜里面，信号不好就重启一下。楼上卧室收不到，要连客厅那个 5G 的。`,
  },
  {
    id: 'n264',
    title: 'Spare keys',
    createdAt: '2025-06-20T02:00:00Z',
    tags: ['home'],
    body: `Spare house key: Carol next door has one, and there's one in the lockbox by the side gate (code 2208). Honda spare key: kitchen junk drawer, in the envelope.`,
  },
  {
    id: 'n265',
    title: 'Neighbors',
    createdAt: '2025-04-26T20:00:00Z',
    tags: ['home', 'contacts'],
    body: `- **Carol** (next door, 4512): waters the plants when we travel, loves lemon bars. 206-555-0193
- **The Nguyens** across the street: Kevin (14) shovels snow and mows for $20
- House on the corner with the chickens sells eggs, $6 a dozen, honor box`,
  },
  {
    id: 'n266',
    title: 'Car tabs',
    createdAt: '2026-02-28T19:00:00Z',
    tags: ['car', 'admin'],
    body: `Honda tabs renewed online on the DOL site: $136 (the RTA tax is most of it). Due every March. Sticker goes on the rear plate, bottom right corner.`,
  },
  {
    id: 'n267',
    title: 'Tires',
    createdAt: '2025-06-28T18:00:00Z',
    tags: ['car', 'maintenance'],
    body: `Les Schwab: free rotation for life because we bought the tires there (Michelin CrossClimate 2, Aug 2024, $880 installed). Rotate every 5,000 miles. Last rotation at 63,100 mi, next around 68,000.`,
  },
  {
    id: 'n268',
    title: 'Check engine light',
    createdAt: '2026-01-16T03:00:00Z',
    tags: ['car'],
    body: `Check engine light came on Tuesday. Free scan at AutoZone: **P0456**, small EVAP leak. Most common cause: the gas cap not clicking shut. Tightened it until it clicked 3 times, the light went off after 3 days of driving. If it comes back → Eastside Auto.`,
  },
  {
    id: 'n269',
    title: 'Cat sitter',
    createdAt: '2025-05-14T04:00:00Z',
    tags: ['cat', 'miso', 'contacts'],
    body: `Jess (found on Rover), 206-555-0172
- $28 per visit, once a day is enough for Miso
- Knows where the treats and the litter bags are
- Book 2+ weeks ahead for holidays
- Venmo @jess-pets`,
  },
  {
    id: 'n270',
    title: 'Biscuit staying with us',
    createdAt: '2025-07-03T03:00:00Z',
    tags: ['dog', 'friends'],
    body: `# Biscuit — Jul 4 weekend

Priya's in Chicago, we have the corgi Thursday to Monday.

- Food: 1 cup kibble at 7am, 1 cup at 6pm (the blue bin in his bag). No table scraps, no chicken bones
- Walks morning and evening. He pulls toward squirrels, use the harness, not the collar
- **Fireworks**: he panics. The Thundershirt is in his bag; keep him in the bedroom with the white noise machine after 9pm on the 4th
- Keep him out of Miso's food and away from the litter box (gross)
- His vet is Wallingford Animal Hospital, it's on his tag

Send Priya photos.`,
  },
  {
    id: 'n271',
    title: 'Miso — flea meds',
    createdAt: '2025-09-01T16:00:00Z',
    tags: ['cat', 'miso'],
    body: `Revolution Plus on the 1st of every month, on the skin between the shoulder blades. 6-pack from Greenlake Animal Hospital, $118. Two left → buy more in November.`,
  },
  {
    id: 'n272',
    title: 'Pet insurance for Miso?',
    createdAt: '2025-10-08T04:00:00Z',
    tags: ['cat', 'miso', 'finance', 'insurance'],
    body: `# Pet insurance?

Quotes for a 9-year-old cat:
- Trupanion: $64/mo, 90%, $250 deductible
- Lemonade: $38/mo, but dental illness excluded unless added
- Healthy Paws: nothing dental, pre-existing

Her teeth would count as pre-existing anyway. **Decided: no insurance.** $50/month into a separate "Miso fund" savings bucket instead, already $400 in there.`,
  },
  {
    id: 'n273',
    title: '猫砂',
    createdAt: '2026-03-21T18:00:00Z',
    tags: ['cat', 'miso', '中文', 'mixed-language'],
    body: `Miso 的猫砂：Dr. Elsey's Ultra，40 lb 一袋，Costco 没有卖，在 Chewy 上设了 autoship，每 6 周送一次。换牌子她会生气，不在盆里上厕所。`,
  },
  {
    id: 'n274',
    title: "Lily's week with us",
    createdAt: '2026-06-05T04:00:00Z',
    tags: ['family', 'lily', 'planning'],
    body: `# Lily stays with us — Jul 12–18

Mei has a conference in Toronto. She drops Lily off on Sunday the 12th and picks her up Saturday the 18th.

## Day camp
- **ZooCamp at Woodland Park Zoo**, Mon–Fri 9–3, "Animal Detectives" for ages 8–9, $395
- Drop-off at the **north gate**, sign in with photo ID
- Pack every day: lunch (the camp is **nut-free**), water bottle, sunscreen, closed-toe shoes, a hat
- Friday 2:30: family showcase, we can come and watch

## Evenings
- Library on Tuesday, she wants Dog Man books
- Pottery painting place in Fremont?
- FaceTime 外公外婆 on Wednesday

- [ ] Booster seat from Mei
- [ ] Ask Mei about bedtime (8:30?)`,
  },
  {
    id: 'n275',
    title: 'Pottery class',
    createdAt: '2026-04-30T05:00:00Z',
    tags: ['pottery', 'hobby'],
    body: `# Wheel throwing — Seward Park Clay Studio

Wednesdays 6:30–9, six weeks, $340 including 25 lb of clay and firing.

- Week 1: centering is impossible. Clay everywhere, zero pots.
- Week 2: first bowl that didn't collapse! Elbow locked on the thigh, lean in.
- Week 3: pulled the walls too thin, two flopped. Ines (the teacher) says slow the wheel down for pulling.

Hands are so dry. Bring lotion and an old towel.`,
  },
  {
    id: 'n276',
    title: 'Pottery — glazing',
    createdAt: '2026-05-21T05:00:00Z',
    tags: ['pottery', 'hobby'],
    body: `Week 5: trimmed three bowls and a mug and glazed them — two celadon, one tenmoku, the mug in shino. One bowl cracked in the bisque firing (bottom too thick). Finished pieces ready for pickup May 27.

Sign up for the next session? Probably yes.`,
  },
  {
    id: 'n277',
    title: 'Piano',
    createdAt: '2025-11-29T04:00:00Z',
    tags: ['piano', 'hobby'],
    body: `Clair de Lune: bars 1–14 OK from memory. Bars 15–26 hands separately, then together at 60 bpm. The arpeggios from bar 27: later. 15 min before dinner, not after (too tired).`,
  },
  {
    id: 'n278',
    title: 'Film roll 3',
    createdAt: '2025-08-09T23:00:00Z',
    tags: ['photography', 'hobby'],
    body: `Roll 3: Portra 400 in the Olympus XA. Dropped off at Panda Lab, $24 dev + scan. Half the indoor shots are underexposed → flash or 800 film inside. The Golden Gardens beach ones came out gorgeous.`,
  },
  {
    id: 'n279',
    title: 'D&D — Wren',
    createdAt: '2026-01-17T07:00:00Z',
    tags: ['dnd', 'games', 'friends'],
    body: `# The Drowned Crown — my character

Raj DMs, every other Friday at his place, 7pm. Bring snacks on odd sessions.

**Wren Ashdown**, half-elf ranger, level 3
- HP 28, AC 15, Dex 17, Wis 14
- Longbow + two shortswords
- Favored enemy: monstrosities
- Animal companion: **Pepper**, a hawk
- Backstory: grew up in a lighthouse, her brother vanished at sea

Party: Sam → Bork (half-orc bard, sings badly on purpose), Dana → Sister Maren (cleric), Marco → Quill (halfling rogue).`,
  },
  {
    id: 'n280',
    title: 'D&D session 4',
    createdAt: '2026-02-28T08:00:00Z',
    tags: ['dnd', 'games'],
    body: `# Session 4 — Saltmere

- Reached Saltmere by the coast road. Bought a rowboat (30 gp).
- The harbormaster, **Osric Vale**, is lying about the missing ships (Wren's insight roll: 19)
- Bork tried to charm a mermaid, rolled a 2, she stole his lute
- Found a waterlogged map with a red X on the **Gull Rocks**
- Loot: **+1 longbow** for Wren (!!), 120 gp, a strange brass key

Next time: row out to the Gull Rocks at low tide.`,
  },
  {
    id: 'n281',
    title: 'D&D session 5',
    createdAt: '2026-03-28T08:00:00Z',
    tags: ['dnd', 'games'],
    body: `# Session 5 — Gull Rocks

- Ambushed by sahuagin on the rocks. Quill went down twice, Sister Maren brought him back
- The brass key opens a sea chest: letters from Osric to "the Mother Below" — he's working for a sea hag
- Pepper spotted a signal fire on the old lighthouse
- **Level 4** → Wren took the **Sharpshooter** feat
- Raj's hint: the lighthouse is where Wren's brother was last seen

Next session Apr 24 (we're in Japan until the 11th).`,
  },
  {
    id: 'n282',
    title: '1:1 with Dev — Apr 30',
    createdAt: '2026-04-30T21:00:00Z',
    tags: ['work', '1on1', 'mentoring'],
    body: `# 1:1 with Dev — Apr 30

First one since I moved to staff. Keeping the weekly slot, Thursdays 2pm.

- He wants to lead the **Harbor retention project** (dropping raw CDC tables after 90 days)
- Nervous about demoing at the eng all-hands in May
- Asked how I go about writing design docs

## Action items
- [ ] Dev: draft the retention design doc by May 14
- [ ] Me: intro Dev to Anika (she owns the analyst side)
- [ ] Me: book a dry run of his all-hands demo`,
  },
  {
    id: 'n283',
    title: '1:1 with Dev — May 7',
    createdAt: '2026-05-07T21:00:00Z',
    tags: ['work', '1on1', 'mentoring'],
    body: `# 1:1 with Dev — May 7

- Retention doc outline looks good, but the background section is 3 pages. Nobody reads that.
- He got paged twice on Saturday and didn't know whether he gets a comp day
- Met Anika, she's keen

## Action items
- [ ] Dev: cut the background to half a page
- [ ] Me: ask Leah about the comp day rule for weekend pages
- [ ] Dev: shadow Tomás on the Postgres minor upgrade next Tuesday`,
  },
  {
    id: 'n284',
    title: '1:1 with Dev — May 14',
    createdAt: '2026-05-14T21:00:00Z',
    tags: ['work', '1on1', 'mentoring'],
    body: `# 1:1 with Dev — May 14

- The retention doc is out for review. Wei left 30 comments and Dev is a bit crushed → normal for Wei, he comments on everything
- Demo dry run went fine. Feedback: slow down, show the dashboard before the code
- Leah confirmed the comp day applies to weekend pages too

## Action items
- [ ] Dev: answer the review comments by Friday
- [ ] Me: read his self-assessment draft for the promo cycle
- [ ] Both: pair on the retention job on Tuesday`,
  },
  {
    id: 'n285',
    title: '1:1 with Leah — May 6',
    createdAt: '2026-05-06T22:00:00Z',
    tags: ['work', '1on1'],
    body: `# 1:1 with Leah — May 6

First 1:1 as staff.

- Scope for H2: Harbor plus the analytics side of Atlas (PostHog → Harbor export)
- She wants me **off primary on-call**, on the escalation rota instead
- Write a 6-month plan with at most two big bets (my own rule anyway)
- Dev is ready for more, let him lead retention

## Todo
- [ ] 6-month plan draft by May 20
- [ ] Hand my on-call slot to Ana`,
  },
  {
    id: 'n286',
    title: 'Recruiter call — Northwind Robotics',
    createdAt: '2024-08-14T23:00:00Z',
    tags: ['career', 'job-search'],
    body: `# Recruiter call — Northwind Robotics

Kelsey (recruiter) reached out on LinkedIn.

- Role: Staff Backend Engineer, fleet platform
- Hybrid, 2 days a week in the Bellevue office
- Base $210–245k + RSUs (4 years, 1-year cliff), 10% bonus target
- Process: recruiter screen → hiring manager → 4-round onsite
- Team of 8, the manager is ex-Amazon

Said I'd think about it. Honestly I'm happy where I am, but it's good to know what the market pays.`,
  },
  {
    id: 'n287',
    title: 'Northwind — no',
    createdAt: '2024-08-23T01:00:00Z',
    tags: ['career', 'job-search'],
    body: `Talked to the hiring manager. The fleet platform team is on call 24/7 for robots in warehouses, a 1-in-3 rotation, and "we page a lot while we're scaling". No thanks.

Sent Kelsey a polite no, keep in touch. Asked Leah for more scope here instead; she mentioned a data platform project next year.`,
  },
  {
    id: 'n288',
    title: "Sam's freelance rates",
    createdAt: '2025-02-06T05:00:00Z',
    tags: ['sam', 'finance', 'freelance'],
    body: `Sam's rates for 2025 (so I stop asking):
- Design work: $95/h
- Logo + brand package: $1,200 flat
- Website refresh: from $3,500

Clients so far: the bakery on 15th, two startups, Raj's brother's coffee roastery. Invoices through Wave, net 15.`,
  },
  {
    id: 'n289',
    title: 'Seed order',
    createdAt: '2026-03-04T05:00:00Z',
    tags: ['garden', 'seeds'],
    body: `Territorial order: Amish Paste, Yellow Pear, Sungold, Genovese basil, Sugar Snap peas, Lacinato kale, nasturtiums (Sam wants flowers). $46.30 with shipping, arrives next week.`,
  },
  {
    id: 'n290',
    title: 'Slugs!',
    createdAt: '2025-05-10T20:00:00Z',
    tags: ['garden', 'pests'],
    body: `Slugs ate every lettuce seedling in bed 2 overnight.
- Sluggo (iron phosphate, safe around Miso) sprinkled around the bed
- Beer trap in a yogurt cup: 8 slugs by morning
- Water in the morning, not the evening
- Copper tape on the bed edges? $15, try it`,
  },
  {
    id: 'n291',
    title: 'Hydrangea',
    createdAt: '2025-06-14T19:00:00Z',
    tags: ['garden'],
    body: `The hydrangea by the front steps came out pink this year instead of blue. Soil's too alkaline (probably the concrete foundation). Aluminum sulfate, 1 tbsp per gallon of water, in spring. Only cut off the dead flower heads: it blooms on old wood.`,
  },
  {
    id: 'n292',
    title: 'Banana bread — tweaks',
    createdAt: '2025-11-01T19:00:00Z',
    tags: ['recipe', 'baking'],
    body: `Banana bread tweaks after ~10 loaves:
- 1/2 cup brown sugar is plenty, not 3/4
- toast the walnuts first
- 1/2 tsp cinnamon + a pinch of cardamom
- 4 bananas if they're small
- brown butter instead of melted = best version yet`,
  },
  {
    id: 'n293',
    title: 'Shakshuka',
    createdAt: '2025-04-06T17:00:00Z',
    tags: ['recipe', 'breakfast', 'eggs'],
    body: `# Shakshuka

Weekend brunch for 2.

- 1 onion, 1 red pepper, 3 cloves garlic
- 1 tsp cumin, 1 tsp paprika, pinch of cayenne
- 1 can (800 g) whole tomatoes, crushed by hand
- 4–5 eggs, feta, cilantro

1. Soften the onion and pepper 8 min, then garlic and spices 1 min.
2. Tomatoes in, simmer 10 min until thick. Salt.
3. Make wells, crack the eggs in, lid on, **low heat 6–8 min** until the whites set but the yolks are runny.
4. Feta and cilantro on top, crusty bread.

Sam likes it with harissa stirred in.`,
  },
  {
    id: 'n294',
    title: 'Granola',
    createdAt: '2025-12-06T18:00:00Z',
    tags: ['recipe', 'breakfast'],
    body: `Sheet-pan granola: 4 cups oats, 1 cup pecans, 1/2 cup pumpkin seeds, 1/2 cup maple syrup, 1/3 cup olive oil, 1 tsp salt, cinnamon. 300°F for 45 min, stir once halfway. Don't stir at the end → clusters. Dried cherries in after it cools.`,
  },
  {
    id: 'n295',
    title: 'Cold brew',
    createdAt: '2025-06-22T16:00:00Z',
    tags: ['coffee', 'recipe'],
    body: `Cold brew: 100 g coarse ground coffee to 1 L cold water, fridge for 16 hours, strain twice (sieve, then a paper filter). Dilute 1:1 with water or milk. Keeps a week. A medium roast works better than the light stuff I use for the V60.`,
  },
  {
    id: 'n296',
    title: 'Mango sticky rice',
    createdAt: '2025-07-12T03:00:00Z',
    tags: ['recipe', 'dessert', 'thai'],
    body: `# Mango sticky rice

- 1 cup glutinous rice, soaked 4 h (or overnight)
- Steam 25 min in a steamer lined with cheesecloth
- Heat 1 can coconut milk with 1/2 cup sugar and 1/2 tsp salt, don't boil
- Pour 2/3 of it over the hot rice, cover, wait 20 min: it soaks it all up
- Thicken the rest with 1 tsp cornstarch for the topping
- 2 ripe Ataulfo mangoes, toasted mung beans or sesame

The Thai place on Roosevelt does it better, but this is close.`,
  },
  {
    id: 'n297',
    title: '葱油拌面',
    createdAt: '2025-10-04T03:00:00Z',
    tags: ['recipe', '中文', 'noodles'],
    body: `# 葱油拌面

上海的味道，十分钟搞定。

- 小葱一大把，切段，葱白葱绿分开
- 油 100 毫升
- 生抽 3 勺，老抽 1 勺，糖 1 勺半
- 细面条

1. 冷油下葱白，小火慢慢炸，再放葱绿，炸到**焦黄**捞出来（大概 15 分钟，不要急）。
2. 关火，倒生抽、老抽、糖，搅匀就是葱油汁。
3. 面条煮好，拌两勺葱油汁，放几根炸葱。

葱油放冰箱能存两个星期。Sam 说这个比方便面好吃一百倍。`,
  },
  {
    id: 'n298',
    title: '酸辣土豆丝',
    createdAt: '2026-03-07T03:00:00Z',
    tags: ['recipe', '中文'],
    body: `# 酸辣土豆丝

- 土豆 2 个，切细丝，**泡水洗掉淀粉**，这样炒出来才脆
- 干辣椒 4 个，花椒一小撮，蒜 2 瓣
- 白醋 2 勺，盐，一点点糖

1. 热油先炸花椒，捞掉，再放干辣椒和蒜。
2. 大火下土豆丝，快速翻炒 2 分钟。
3. 沿锅边淋醋，加盐，再炒 30 秒出锅。

不要炒太久，软了就不好吃了。`,
  },
  {
    id: 'n299',
    title: 'Renewals',
    createdAt: '2025-07-21T04:00:00Z',
    tags: ['finance', 'subscriptions'],
    body: `Renewals coming up:
- NYT promo ends **Aug 12** → jumps to $25/mo. Cancel, or call them for another promo.
- Costco membership: November, $65
- thirstyplant.dev domain: Jan 18, $12
- Car insurance: Oct 1 (shop around this time!)`,
  },
  {
    id: 'n300',
    title: 'Gift ideas',
    createdAt: '2025-10-19T05:00:00Z',
    tags: ['gifts', 'list'],
    body: `Gift ideas, running list:
- Raj: hot sauce from the Fremont Sunday market, a metal D&D dice set
- Priya: a portrait of Biscuit (someone on Etsy paints corgis in watercolor)
- Dana: a Japanese ceramic mug like mine
- Eli: something for the new apartment? ask Sam
- Carol next door: lemon bars, always`,
  },
  {
    id: 'n301',
    title: "Dana's baby shower",
    createdAt: '2026-06-03T04:00:00Z',
    tags: ['friends', 'gifts', 'mixed-language'],
    body: `Dana's baby shower: **Sat Jun 27, 1pm**, at Marco's sister's house in Kirkland. Registry on Babylist.

Got: the hooded towel set + board books (Goodnight Moon, The Very Hungry Caterpillar, and a Chinese one: 猜猜我有多爱你). Wrap in the leftover Christmas paper.

Baby is due early August, a girl!`,
  },
  {
    id: 'n302',
    title: 'Podcasts to try',
    createdAt: '2025-04-03T04:00:00Z',
    tags: ['podcast', 'list', 'mixed-language'],
    body: `- Hard Fork (Sam listens)
- Search Engine, the episode about airplane food
- The Rest Is History — Raj's pick, start with the Titanic series
- 忽左忽右 — 中文的历史和文化节目，Mom's friend's son recommended it
- Nihongo con Teppei for listening practice`,
  },
  {
    id: 'n303',
    title: 'Podcast: morning light',
    createdAt: '2025-11-06T16:00:00Z',
    tags: ['podcast', 'health', 'sleep'],
    body: `From a sleep podcast on the long run: get 10 minutes of outdoor light within an hour of waking (20+ on cloudy days, so: Seattle, always). Delay caffeine 90 min after waking. Dim the lights after 9pm. Trying the morning light walk; Miso watches from the window.`,
  },
  {
    id: 'n304',
    title: 'Japanese counters',
    createdAt: '2025-03-19T04:00:00Z',
    tags: ['language', 'japanese', 'mixed-language'],
    body: `Counters cheat sheet (after the Mar 18 lesson disaster):
- 〜つ: general things, up to 10 (ひとつ、ふたつ…)
- 〜本: long thin things — pens, bottles, umbrellas
- 〜枚: flat things — paper, shirts, tickets
- 〜匹: small animals (猫が一匹)
- 〜台: machines, cars
- 〜冊: books
- 〜人: people, but ひとり、ふたり are irregular

Sound changes: いっぽん、にほん、さんぼん 🙃`,
  },
  {
    id: 'n305',
    title: 'Spanish — kitchen words',
    createdAt: '2025-10-11T21:00:00Z',
    tags: ['language', 'spanish'],
    body: `Kitchen words from Saturday with Lucía:
la sartén — frying pan · la olla — pot · el cucharón — ladle · el horno — oven · la licuadora — blender · hervir — to boil · freír — to fry · picar — to chop · una pizca — a pinch`,
  },
  {
    id: 'n306',
    title: 'Home insurance renewal',
    createdAt: '2026-02-20T05:00:00Z',
    tags: ['home', 'insurance', 'finance'],
    body: `PEMCO homeowners renews **Mar 1**: $1,684/yr (was $1,590).
- Dwelling coverage $612k, deductible $2,500
- Earthquake not included. Add-on quote: $1,150/yr with a 15% deductible → we'd have to lose ~$90k before it pays anything. Skip again?
- Sewer backup rider: yes, $60, after the main line clog`,
  },
  {
    id: 'n307',
    title: 'Life insurance',
    createdAt: '2025-12-10T05:00:00Z',
    tags: ['finance', 'insurance'],
    body: `Term life, 20 years, $1M each (mortgage + a few years of income).
- Quotes via Policygenius: me $38/mo, Sam $44/mo (Haven Life)
- Medical exam at home Jan 14, 7am, fasting, no coffee (ugh)
- Beneficiaries: each other`,
  },
  {
    id: 'n308',
    title: 'Property tax 2026',
    createdAt: '2026-02-14T18:00:00Z',
    tags: ['home', 'taxes', 'finance'],
    body: `King County property tax for 2026: **$7,480**. First half due **Apr 30**, second half Oct 31. Not in escrow, we pay it online ourselves. Two calendar reminders set.`,
  },
  {
    id: 'n309',
    title: "Sam's estimated taxes — Q1",
    createdAt: '2026-04-14T18:00:00Z',
    tags: ['taxes', 'finance', 'sam'],
    body: `Paid Sam's Q1 2026 estimated tax on IRS Direct Pay: **$3,200** federal, confirmation saved in the Taxes folder. No state income tax in WA 🙌. Next one Jun 15.`,
  },
  {
    id: 'n310',
    title: 'Side project: thirsty plant',
    createdAt: '2025-01-18T22:00:00Z',
    tags: ['side-project', 'programming', 'iot'],
    body: `# Side project: thirsty plant

A soil moisture sensor in the big plant's pot that pings my phone when it needs water. Sam overwaters, I forget; this solves both.

- ESP32 board + capacitive soil sensor (~$15 for both)
- MicroPython, deep sleep, wake every 30 min
- Sends readings to a tiny Node server on the old Raspberry Pi
- Notifications through a Telegram bot
- Domain: thirstyplant.dev (bought, $12)

Weekend project. (Famous last words.)`,
  },
  {
    id: 'n311',
    title: 'thirsty plant — week 2',
    createdAt: '2025-02-01T23:00:00Z',
    tags: ['side-project', 'programming', 'iot'],
    body: `Calibrated the sensor: 2,900 in dry air, 1,250 in a glass of water, 1,900 in soil that feels dry. Threshold 1,800.

The Telegram bot works!! First message: “I'm thirsty 🌱”.

Problem: 2× AA batteries last 3 days. Connecting to wifi is the expensive part → batch the readings, connect every 6 hours. Or just use USB power, there's an outlet right there.`,
  },
  {
    id: 'n312',
    title: 'Movies',
    createdAt: '2025-12-19T04:00:00Z',
    tags: ['movies'],
    body: `Sam's pick for Friday: Aftersun. Mine: Columbus (2017, the architecture one). Coin flip?`,
  },
  {
    id: 'n313',
    title: 'Quote',
    createdAt: '2025-08-01T03:00:00Z',
    tags: ['quotes'],
    body: `“What you do every day matters more than what you do once in a while.” — Gretchen Rubin. (Poster at the physio's. Cheesy but true.)`,
  },
  {
    id: 'n314',
    title: 'Quote',
    createdAt: '2026-02-08T05:00:00Z',
    tags: ['quotes', 'mixed-language'],
    body: `“The days are long, but the years are short.” Mom said the Chinese version on the phone today: 日子过得真快啊. She's right.`,
  },
  {
    id: 'n315',
    title: 'Link: pan pizza',
    createdAt: '2025-10-25T20:00:00Z',
    tags: ['link', 'recipe'],
    body: `https://www.seriouseats.com/foolproof-pan-pizza-recipe — pan pizza, no stretching. For when the steel is too much effort.`,
  },
  {
    id: 'n316',
    title: 'Read later',
    createdAt: '2025-05-03T04:00:00Z',
    tags: ['link', 'programming'],
    body: `https://jvns.ca/blog/how-updating-dns-works/ — Julia Evans on DNS. Send to Ana.`,
  },
  {
    id: 'n317',
    title: 'Saturday',
    createdAt: '2025-11-15T16:00:00Z',
    tags: ['todo'],
    body: `- [ ] return library books (3, overdue!)
- [ ] Goodwill bag → car → Goodwill
- [ ] call Mom
- [ ] squeaky closet door: WD-40
- [ ] dry cleaning (Sam's suit)
- [x] buy stamps`,
  },
  {
    id: 'n318',
    title: 'Saturday',
    createdAt: '2026-02-07T16:00:00Z',
    tags: ['todo'],
    body: `- [ ] library books (again…)
- [ ] the Goodwill bag is STILL in the trunk
- [ ] birthday card for Raj
- [ ] oil the closet door hinge, WD-40 didn't last
- [ ] Miso's flea meds
- [x] call Mom`,
  },
  {
    id: 'n319',
    title: 'Packing — Langley weekend',
    createdAt: '2026-05-21T04:00:00Z',
    tags: ['travel', 'cabin', 'checklist'],
    body: `- swimsuits (the lake is freezing, but still)
- Wingspan + Codenames
- hiking boots, rain jackets
- V60 + beans + filters (the cabin only has a Mr. Coffee)
- groceries for 2 dinners: pasta night + burgers
- bug spray, sunscreen
- Miso → Jess comes Sat + Sun`,
  },
  {
    id: 'n320',
    title: 'Packing for 春节',
    createdAt: '2026-01-26T05:00:00Z',
    tags: ['travel', 'china', 'checklist', 'mixed-language'],
    body: `- 红包 ×20 (get new bills at the bank first!)
- gifts: 按摩仪 for Dad, hand cream for Mom, a cashmere scarf for 外婆
- Sam's visa printout + passport
- 转换插头: China uses both flat and angled pins
- warm layers, Hangzhou is damp cold and the houses aren't heated
- Lily's drawings for 外婆
- Tylenol, 肠胃药`,
  },
  {
    id: 'n321',
    title: 'Dentist — cleaning',
    createdAt: '2025-08-19T22:00:00Z',
    tags: ['health', 'dentist'],
    body: `Cleaning with Tara (Dr. Huang's hygienist). No new cavities, the crown looks good. Gums a bit puffy at the lower front → floss every night, maybe get a water flosser. I wear the night guard ~5 nights a week; she says every night. Next cleaning in February.`,
  },
  {
    id: 'n322',
    title: 'Dentist — cleaning',
    createdAt: '2026-02-25T22:00:00Z',
    tags: ['health', 'dentist'],
    body: `Cleaning. One small cavity, upper right (tooth #3): filling booked for Mar 4, ~$180 after insurance. The night guard has a crack down the middle; a new one is $450 and insurance doesn't cover it. The flossing streak paid off, gums much better than in August.`,
  },
  {
    id: 'n323',
    title: 'Dentist — filling',
    createdAt: '2026-03-04T23:00:00Z',
    tags: ['health', 'dentist'],
    body: `Filling on #3 done, composite (white), 40 minutes. Numb until 2pm, soup for lunch. Paid $176. Sensitivity to cold for a week or two is normal; call if it still hurts at night after that.`,
  },
  {
    id: 'n324',
    title: 'Eye exam',
    createdAt: '2025-11-13T23:00:00Z',
    tags: ['health', 'eyes'],
    body: `Eyes on Fremont, Dr. Kim. Prescription a bit worse: R −2.75, L −3.00 (was −2.50 / −2.75). Ordered Acuvue Oasys 1-Day, two 90-packs, $210 after the vision plan. Kept the old frames, new lenses only ($140).`,
  },
  {
    id: 'n325',
    title: 'Doctor',
    createdAt: '2025-06-12T17:00:00Z',
    tags: ['health', 'contacts'],
    body: `Dr. Patel, UW Medicine Ravenna clinic: 206-555-0110. Messages through MyChart, she usually answers in 1–2 days. After-hours nurse line: 206-555-0199.`,
  },
  {
    id: 'n326',
    title: 'Allergies',
    createdAt: '2026-03-25T15:00:00Z',
    tags: ['health'],
    body: `Tree pollen season has started. Zyrtec every morning from now until June, Flonase on bad days. Bedroom windows closed, shower before bed after runs. Pack some for Japan (cedar pollen there too!).`,
  },
  {
    id: 'n327',
    title: '周报 — 4 月 27 日',
    createdAt: '2026-04-27T23:00:00Z',
    tags: ['work', '中文', 'weekly-report', 'mixed-language'],
    body: `# 周报 4 月 27 日（给上海团队）

## 本周完成
- Harbor 第三批报表迁移完成，一共 9 张，刘婷确认数字没问题
- 只读账号的密码改成自动轮换，每 90 天一次
- 修复了一个时区问题：报表里的日期现在按上海时间算

## 下周计划
- 开始做原始数据表的保留策略（超过 90 天自动删除）
- 和王磊确认 sandbox schema 的空间上限

## 风险
- 5 月 1 日到 5 日上海放假，这期间不上线`,
  },
  {
    id: 'n328',
    title: '周报 — 5 月 11 日',
    createdAt: '2026-05-11T23:00:00Z',
    tags: ['work', '中文', 'weekly-report'],
    body: `# 周报 5 月 11 日（给上海团队）

## 本周完成
- 保留策略的设计文档发出去了（Dev 负责），等 Wei 审核
- sandbox schema 上限定为 50 GB，王磊同意了
- 第四批报表：6 张完成了 4 张，剩下两张的汇率字段还要核对

## 下周计划
- 剩下的两张报表
- 给刘婷开一个 PostHog 只读账号，她想看 Atlas 的中国用户数据

## 风险
- 无`,
  },
  {
    id: 'n329',
    title: '妈妈种牙',
    createdAt: '2026-04-05T13:00:00Z',
    tags: ['health', '中文', 'family'],
    body: `# 妈妈种牙

妈妈左下两颗后牙松了很久，医生建议拔掉种牙。

- 医院：浙大口腔医院（华家池院区），张医生
- 种植体用国产的，集采以后一颗 **¥6,500** 左右，以前要一万多
- 先拔牙，等三个月长好了再种，种完再等三个月装牙冠
- 医保可以报一部分，大概 30%

我跟她说钱我出一半，她一直说不用。让爸爸陪她去，别一个人去。`,
  },
  {
    id: 'n330',
    title: '外婆摔了一跤',
    createdAt: '2026-04-24T14:00:00Z',
    tags: ['family', '中文', 'health'],
    body: `# 外婆摔了一跤

舅舅早上打电话：外婆昨天半夜起来上厕所，在卫生间摔倒了，**股骨颈骨折**，现在在浙一医院。

- 医生说快 90 岁的人做手术有风险，但是不做的话以后就只能躺在床上了
- 决定做髋关节置换，明天上午手术
- 妈妈和舅舅轮流在医院陪床，请了一个护工，一天 ¥300

我问要不要回去，妈妈说先不用，等手术结果。一整天都没心思上班。`,
  },
  {
    id: 'n331',
    title: '外婆出院了',
    createdAt: '2026-05-09T14:00:00Z',
    tags: ['family', '中文', 'health'],
    body: `# 外婆出院了

手术很顺利，外婆住了两个星期院，今天出院了，先住到爸妈家（幸好去年卫生间装了扶手，也没有门槛）。

- 每天康复训练两次，用助行器走路
- 护工再请一个月，晚上妈妈陪
- 六个星期以后复查拍片
- 视频的时候她精神很好，还问 Sam 什么时候再来

我订了 8 月回去看她的机票。`,
  },
  {
    id: 'n332',
    title: '老房子漏水',
    createdAt: '2026-03-18T13:00:00Z',
    tags: ['family', '中文', 'home'],
    body: `# 外婆老房子漏水

租客在微信上跟爸爸说，厨房水槽下面的水管漏了，地板都泡了。爸爸找了小区门口的师傅，换了一截水管和一个角阀，¥260。

租客人很好，拍了视频，还自己先把总阀关了。爸爸说这种租客要留住，明年续租不涨价。`,
  },
  {
    id: 'n333',
    title: '妈妈做理疗',
    createdAt: '2025-12-15T13:00:00Z',
    tags: ['health', '中文', 'family'],
    body: `妈妈颈椎不舒服，去医院做了十次理疗。医保报了七成，自己付了 ¥420。医生让她少低头看手机 😂 她每天刷抖音两个小时。`,
  },
  {
    id: 'n334',
    title: '带回杭州的东西',
    createdAt: '2025-11-30T06:00:00Z',
    tags: ['family', '中文', 'list'],
    body: `下次带回杭州的东西：
- 鱼油两瓶（Costco 的 Kirkland）
- 维生素 D3，给妈妈
- 爸爸要的那种无糖燕麦
- 西洋参，给外婆
- Lily 画的画

春节一起带回去就行，不用寄了，国际快递太贵。`,
  },
  {
    id: 'n335',
    title: '想读的中文书',
    createdAt: '2025-11-20T06:00:00Z',
    tags: ['books', '中文', 'reading-list'],
    body: `- 《兄弟》余华
- 《许三观卖血记》余华
- 《平凡的世界》路遥，三本，很厚
- 《长安的荔枝》马伯庸，听说很好看
- 《我与地坛》史铁生，妈妈推荐的

Kindle 上买不到的，回国的时候买纸书。`,
  },
  {
    id: 'n336',
    title: '这周做什么菜',
    createdAt: '2026-03-01T18:00:00Z',
    tags: ['中文', 'meal-prep', 'food'],
    body: `# 这周做什么菜

- 周一：番茄炒蛋 + 清炒上海青
- 周二：可乐鸡翅（Sam 点的）
- 周三：剩菜
- 周四：酸辣土豆丝 + 红烧豆腐
- 周五：出去吃
- 周末：包饺子，多包一些冻起来`,
  },
  {
    id: 'n337',
    title: '爸妈家地址',
    createdAt: '2025-08-12T05:00:00Z',
    tags: ['family', '中文', 'address'],
    body: `爸妈家地址（寄快递用）：
浙江省杭州市西湖区文三路 318 号 5 幢 2 单元 602 室
收件人：陈建国，电话 139 0571 6628

外婆现在住在舅舅家（上城区），地址要问舅舅。`,
  },
  {
    id: 'n338',
    title: '电话号码',
    createdAt: '2025-08-12T05:10:00Z',
    tags: ['family', '中文', 'contacts'],
    body: `舅舅：138 5712 6630
小雨（表妹）：微信 xiaoyu_sh
爸妈家座机：0571 8812 3407
姐姐在温哥华的号码存在手机里了`,
  },
  {
    id: 'n339',
    title: 'WeChat Pay and Alipay for the trip',
    createdAt: '2026-01-20T05:00:00Z',
    tags: ['travel', 'china', 'mixed-language'],
    body: `Before the trip: foreigners can now link a Visa card to 微信支付 and 支付宝 directly.
- Sam downloaded Alipay, did 实名认证 with his passport, linked his Chase card
- Test with a small payment before leaving (sent Mom ¥1, lol)
- Lots of places don't take cards at all, and some don't even take cash anymore
- 滴滴 works inside Alipay for taxis`,
  },
  {
    id: 'n340',
    title: 'Lily 学中文的 app',
    createdAt: '2026-02-27T05:00:00Z',
    tags: ['lily', '中文', 'mixed-language'],
    body: `姐姐问有没有好的中文 app 给 Lily 用：
- 洪恩识字：游戏式认字，Lily 很喜欢
- Pleco：查字典
- 宝宝巴士的儿歌
- YouTube 上的《小猪佩奇》中文版

每天最多 20 分钟，不然她就只想玩不想学。`,
  },
  {
    id: 'n341',
    title: 'Costco 清单',
    createdAt: '2026-05-02T17:00:00Z',
    tags: ['groceries', '中文', 'mixed-language'],
    body: `Costco 清单：
- 鸡蛋 5 dozen（做茶叶蛋）
- rotisserie chicken
- 牛油果一袋
- Kirkland 坚果
- paper towels
- 猫砂？不对，猫砂要在 Chewy 买
- 西兰花 florets`,
  },
  {
    id: 'n342',
    title: '日记 5 月 30 日',
    createdAt: '2026-05-31T05:00:00Z',
    tags: ['journal', '中文'],
    body: `# 日记 5 月 30 日

今天一个人在家，Sam 去帮 Marco 搬婴儿床。上午把院子里的草拔了，下午睡了一个长长的午觉，晚上做了葱油拌面。

外婆的事情让我想了很多：爸妈也在变老，我离得这么远。跟 Sam 商量了，明年想请爸妈来西雅图住三个月，住楼下那间客房，离卫生间近。`,
  },
  {
    id: 'n343',
    title: 'Haircut',
    createdAt: '2025-09-27T20:00:00Z',
    tags: ['personal'],
    body: `Mina at the salon on 15th Ave: $85 + tip. Long layers, face-framing, NO bangs ever again. Book 8 weeks out, she fills up.`,
  },
  {
    id: 'n344',
    title: 'Donations 2025',
    createdAt: '2025-12-28T20:00:00Z',
    tags: ['finance', 'taxes', 'charity'],
    body: `Year-end giving 2025:
- Northwest Harvest $500
- Seattle Humane $300 (where Miso came from!)
- KEXP $200
- Lily's school fundraiser $50

Receipts in the Taxes 2025 folder. The standard deduction wins anyway, but the company matches the first $1,000 → submitted the match for Northwest Harvest and Seattle Humane.`,
  },
  {
    id: 'n345',
    title: 'Couch',
    createdAt: '2025-03-22T20:00:00Z',
    tags: ['home', 'furniture'],
    body: `Ordered the **Article Sven** sofa, 88 inch, Charme Tan leather. $2,199, delivery in 6 weeks. Measured the stairwell first: 34 inch clearance; the sofa is 38 deep but 34 high → it fits on its back. Old couch → Buy Nothing group.`,
  },
  {
    id: 'n346',
    title: 'Window measurements',
    createdAt: '2025-03-29T19:00:00Z',
    tags: ['home'],
    body: `Living room window: 68 × 54 in (inside mount). Bedroom: 35 × 60. Office: 46 × 48. For the blinds order. Measure twice!`,
  },
  {
    id: 'n347',
    title: 'Sizes',
    createdAt: '2025-11-25T05:00:00Z',
    tags: ['sam', 'gifts'],
    body: `Sam: shirt M (L if slim fit), pants 32/32, shoes 10.5, ring 9.5. Me: ring 6, shoes 7.5 (8 in running shoes).`,
  },
  {
    id: 'n348',
    title: 'Running shoes',
    createdAt: '2026-05-30T18:00:00Z',
    tags: ['fitness', 'running', 'gear'],
    body: `- Saucony Ride 17: daily runs, 540 km on them, replace around 700
- Endorphin Speed 4: tempo + long runs, 180 km
- Marathon training: order a second pair of Rides in June and rotate them

Fleet Feet gives 15% off with the run club card.`,
  },
  {
    id: 'n349',
    title: 'Untitled',
    createdAt: '2025-09-07T05:00:00Z',
    tags: [],
    body: `I think the reason I like running is that it's the one hour of the day nobody can`,
  },
  {
    id: 'n350',
    title: 'Blog idea',
    createdAt: '2026-03-31T20:00:00Z',
    tags: ['ideas', 'writing'],
    body: `Post idea: what two years of on-call taught me about… something. Alerts as a product? Pages are a tax? Write the outline on the plane.`,
  },
  {
    id: 'n351',
    title: 'Seattle Humane volunteering',
    createdAt: '2026-01-24T23:30:00Z',
    tags: ['volunteering', 'cats'],
    body: `Cat socializer shifts at Seattle Humane, **Saturdays 10–12**. Orientation done Jan 17. Rules: sanitize between rooms, don't pick up the cats in red-tag rooms, write in the behavior log.

First shift: a shy tabby called Pancake finally came out from under the bed at 11:40.`,
  },
  {
    id: 'n352',
    title: 'Wedding vendors',
    createdAt: '2024-06-16T04:00:00Z',
    tags: ['wedding', 'planning'],
    body: `# Wedding — Oct 4

- Ceremony: **Kubota Garden**, permit booked, 50 guests max
- Dinner: Sam's friend Luis's restaurant in Columbia City, private room, family style
- Photographer: **Lena Park**, 6 hours, $3,200, deposit paid
- Flowers: Trader Joe's + a Saturday with Dana (really)
- Cake: ask Fuji Bakery about black sesame
- Officiant: Raj got ordained online 😂
- Mom and Dad's visas: start NOW`,
  },
  {
    id: 'n353',
    title: 'Thank-you cards',
    createdAt: '2024-10-20T04:00:00Z',
    tags: ['wedding', 'list'],
    body: `Thank-you cards still to write:
- [x] Dana — flowers + everything
- [x] Raj — officiant!!
- [ ] Priya — the KitchenAid
- [ ] Linda & Paul — the quilt
- [ ] Mei & Lily — the drawing and the tea set
- [ ] Luis — dinner
- [ ] Carol next door

Stamps: 2 books.`,
  },
  {
    id: 'n354',
    title: 'JLPT practice test 1',
    createdAt: '2026-05-02T05:00:00Z',
    tags: ['language', 'japanese', 'jlpt'],
    body: `Practice test 1 (official N4 sample, timed):
- Vocabulary/kanji: 62%
- Grammar/reading: 55%
- Listening: **48%**

Passing needs about half overall plus a minimum per section, so listening is the risk. Teppei on every run, 10 min of shadowing a day. Second practice test mid-June.`,
  },
  {
    id: 'n355',
    title: "Linda's cornbread",
    createdAt: '2025-11-28T02:00:00Z',
    tags: ['recipe', 'baking', 'family'],
    body: `From the card Sam's mom mailed us:
1 cup cornmeal, 1 cup flour, 1/4 cup sugar, 1 tbsp baking powder, 1 tsp salt, 1 cup buttermilk, 2 eggs, 1/3 cup melted butter. Preheat the cast iron in the oven at 425°F, pour the batter into the hot pan, 20 min.

She says honey butter on top, no arguments.`,
  },
  {
    id: 'n356',
    title: 'Freezer',
    createdAt: '2026-01-25T20:00:00Z',
    tags: ['food', 'list'],
    body: `In the freezer (eat before the China trip!):
- 2 bags tomato sauce (August)
- ~30 dumplings
- chili ×3 portions
- pesto cubes
- half a loaf of banana bread
- frozen shrimp`,
  },
  {
    id: 'n357',
    title: 'Standing desk',
    createdAt: '2025-04-19T20:00:00Z',
    tags: ['home', 'office'],
    body: `Office: Uplift V2 desk. Sitting height 29 in, standing 45 in (presets 1 and 2). Monitor arm from the WFH stipend ($500, reimbursed).`,
  },
];

export const corpusQuestions: CorpusQuestion[] = [
  // keyword: asks with the answering note's own rare words (names, terms, numbers).
  {
    group: 'keyword',
    question: 'When did we decide to move the Atlas launch to March?',
    relevant: ['n164'],
  },
  {
    group: 'keyword',
    question: 'What temperature do I bake the sourdough at?',
    relevant: ['n035'],
  },
  {
    group: 'keyword',
    question: 'Which book said habits are built by environment design?',
    relevant: ['n005'],
  },
  { group: 'keyword', question: 'Why did Atlas switch analytics vendors?', relevant: ['n147'] },
  { group: 'keyword', question: 'Why did we choose Stripe Tax over Avalara?', relevant: ['n044'] },
  {
    group: 'keyword',
    question: 'Why did we choose CloudNativePG over Crunchy and Zalando?',
    relevant: ['n071'],
  },
  {
    group: 'keyword',
    question: 'What does the satisfies operator do differently from a type annotation?',
    relevant: ['n015'],
  },
  {
    group: 'keyword',
    question: 'Which index type should I use for jsonb containment queries?',
    relevant: ['n074'],
  },
  {
    group: 'keyword',
    question: 'Should the liveness probe check the database?',
    relevant: ['n082'],
  },
  {
    group: 'keyword',
    question: "What's the kubectl command to switch the default namespace?",
    relevant: ['n111'],
  },
  {
    group: 'keyword',
    question: 'How long do I roast the garlic heads for the roasted garlic soup?',
    relevant: ['n174'],
  },
  {
    group: 'keyword',
    question: 'Which day did we do the Sintra day trip in Lisbon?',
    relevant: ['n060'],
  },
  {
    group: 'keyword',
    question: 'Was the JR Pass worth it for the Japan trip?',
    relevant: ['n201'],
  },
  {
    group: 'keyword',
    question: 'What was my official time at the Victoria Half Marathon?',
    relevant: ['n151'],
  },
  {
    group: 'keyword',
    question: 'What exercises did the physio give me for my knee?',
    relevant: ['n105'],
  },
  {
    group: 'keyword',
    question: 'Which Moen cartridge fits the kitchen faucet?',
    relevant: ['n019'],
  },
  { group: 'keyword', question: 'What paint color did we use in the bedroom?', relevant: ['n051'] },
  { group: 'keyword', question: 'What size furnace filter do I need?', relevant: ['n153'] },
  {
    group: 'keyword',
    question: "What's the difference between は and が in Japanese?",
    relevant: ['n058'],
  },
  { group: 'keyword', question: 'How many new Anki cards per day do I do?', relevant: ['n026'] },
  {
    group: 'keyword',
    question: "Which book did Raj say to skip because it's a history textbook with spaceships?",
    relevant: ['n106'],
  },
  { group: 'keyword', question: 'How much did the Lisbon trip cost in total?', relevant: ['n075'] },
  { group: 'keyword', question: 'Which DNS servers did I set on the eero?', relevant: ['n012'] },
  { group: 'keyword', question: 'Where is my JLPT test site?', relevant: ['n189'] },
  {
    group: 'keyword',
    question: 'What ratio of browns to greens should the compost have?',
    relevant: ['n047'],
  },
  {
    group: 'keyword',
    question: 'What does tracer bullets mean in The Pragmatic Programmer?',
    relevant: ['n143'],
  },
  {
    group: 'keyword',
    question: 'Which backend candidate did I rate strong hire?',
    relevant: ['n049'],
  },
  { group: 'keyword', question: 'When did I get promoted to staff engineer?', relevant: ['n221'] },
  {
    group: 'keyword',
    question: "What were my New Year's resolutions for 2026?",
    relevant: ['n184'],
  },
  {
    group: 'keyword',
    question: 'Which push notification approach did we pick for Atlas, OneSignal or our own?',
    relevant: ['n100'],
  },
  { group: 'keyword', question: 'Did we go with Expo or bare React Native?', relevant: ['n078'] },
  { group: 'keyword', question: "What's read-your-writes consistency?", relevant: ['n085'] },
  {
    group: 'keyword',
    question:
      'Which Postgres extension did the Shanghai team ask about for Chinese full-text search?',
    relevant: ['n172'],
  },
  { group: 'keyword', question: 'When do I use the subjunctive in Spanish?', relevant: ['n137'] },
  { group: 'keyword', question: 'How much did the gutter cleaning cost?', relevant: ['n170'] },
  { group: 'keyword', question: "What's my V60 coffee to water ratio?", relevant: ['n034'] },
  {
    group: 'keyword',
    question: 'How much did we spend on food shopping in April 2025?',
    relevant: ['n061'],
  },
  // reworded: asked the way a person remembers it, sharing no content word (after stop words and
  // stemming) with the answering note: only meaning can find these.
  {
    group: 'reworded',
    question:
      'What did the garage charge me when the vehicle squealed whenever I slowed down last summer?',
    relevant: ['n112'],
  },
  {
    group: 'reworded',
    question: "Why won't the night theme be in the phone app's initial version?",
    relevant: ['n118'],
  },
  {
    group: 'reworded',
    question: "When a subscriber's charge is declined, how many more attempts happen, and when?",
    relevant: ['n104'],
  },
  {
    group: 'reworded',
    question: 'How far into the past can the reporting warehouse be rewound?',
    relevant: ['n101'],
  },
  {
    group: 'reworded',
    question: 'Why did the reporting warehouse run out of room that autumn?',
    relevant: ['n155'],
  },
  {
    group: 'reworded',
    question: 'How can I speed up lookups on a huge relation in prod without stalling inserts?',
    relevant: ['n161'],
  },
  {
    group: 'reworded',
    question: 'How do I bring a database snapshot back quicker using multiple CPU cores?',
    relevant: ['n139'],
  },
  {
    group: 'reworded',
    question: 'Do WITH clauses still stop the planner from seeing through them?',
    relevant: ['n193'],
  },
  {
    group: 'reworded',
    question:
      'A constantly edited relation is ten times bigger on disk than it should be — how do I fix that?',
    relevant: ['n109'],
  },
  {
    group: 'reworded',
    question: 'How can I read what a k8s workload printed right before it died and got relaunched?',
    relevant: ['n018'],
  },
  {
    group: 'reworded',
    question:
      'Which runtime flag did we pass when the travel-plans backend got terminated for eating too much RAM?',
    relevant: ['n045'],
  },
  {
    group: 'reworded',
    question:
      "What's the smallest and largest number of copies the trip backend grows and shrinks between?",
    relevant: ['n142'],
  },
  {
    group: 'reworded',
    question: 'How do I pin down which revision in source control first introduced a bug?',
    relevant: ['n097'],
  },
  {
    group: 'reworded',
    question: "How can I make the build break if I don't handle every variant of a tagged sum?",
    relevant: ['n036'],
  },
  {
    group: 'reworded',
    question:
      'Why do my local paths with no suffix blow up at startup after moving to the newer JavaScript loading standard?',
    relevant: ['n064'],
  },
  {
    group: 'reworded',
    question: 'How does what a schema lets in differ from what comes out the other side?',
    relevant: ['n090'],
  },
  {
    group: 'reworded',
    question: 'How do I stop the aromatics going brown and acrid in that late-night noodle dish?',
    relevant: ['n024'],
  },
  {
    group: 'reworded',
    question: 'How far ahead should I make my homemade flatbread base so it can chill?',
    relevant: ['n149'],
  },
  {
    group: 'reworded',
    question: 'Where did I sleep during that tech event in Germany?',
    relevant: ['n110'],
  },
  {
    group: 'reworded',
    question:
      'Which writer argues that nobody ever gets on top of their chores, and that making peace with this is liberating?',
    relevant: ['n095'],
  },
  {
    group: 'reworded',
    question: 'Which writer suggests mapping out my entire day at the office beforehand with pen?',
    relevant: ['n023'],
  },
  {
    group: 'reworded',
    question:
      'Which author distinguishes domains with fast, reliable signals from murky ones where past know-how leads you astray?',
    relevant: ['n043'],
  },
  {
    group: 'reworded',
    question:
      'Which author says mankind teamed up at massive scale thanks to myths everyone agrees on?',
    relevant: ['n160'],
  },
  {
    group: 'reworded',
    question:
      'When guessing a deadline, what should we look at besides our own optimistic schedule?',
    relevant: ['n056'],
  },
  {
    group: 'reworded',
    question: 'When was the earliest I managed triple digits with the bar across my shoulders?',
    relevant: ['n167'],
  },
  {
    group: 'reworded',
    question: 'What did the lab say about my lipids at the yearly exam?',
    relevant: ['n083'],
  },
  {
    group: 'reworded',
    question:
      'Why is my crop of Italian plum-shaped veggies getting sunken dark blotches underneath?',
    relevant: ['n108'],
  },
  {
    group: 'reworded',
    question: 'How far down in the soil should each bulb segment go?',
    relevant: ['n158'],
  },
  {
    group: 'reworded',
    question: 'Why did my vehicle protection plan suddenly get pricier?',
    relevant: ['n131'],
  },
  {
    group: 'reworded',
    question: "What do I tell the waiter in Tokyo when we're ready to pay?",
    relevant: ['n214'],
  },
  {
    group: 'reworded',
    question: 'What did I give my husband to celebrate being married since last October?',
    relevant: ['n136'],
  },
  {
    group: 'reworded',
    question: "Which restaurant is holding a table for my husband's party in March?",
    relevant: ['n204'],
  },
  {
    group: 'reworded',
    question: 'How stable was the mobile app for early testers after about twenty days?',
    relevant: ['n147'],
  },
  {
    group: 'reworded',
    question: 'How gradually will the new mobile version reach everyone, and at what pace?',
    relevant: ['n190'],
  },
  {
    group: 'reworded',
    question: 'How long must fresh sealant set before I can wash up?',
    relevant: ['n081'],
  },
  {
    group: 'reworded',
    question: 'How were my remarks received when my college roommate tied the knot?',
    relevant: ['n120'],
  },
  { group: 'reworded', question: 'Which recurring charges did I get rid of?', relevant: ['n091'] },
  {
    group: 'reworded',
    question: 'How much was getting the broken back tooth capped?',
    relevant: ['n017'],
  },
  {
    group: 'reworded',
    question: 'What tweak helped me stay asleep through the night the most?',
    relevant: ['n038'],
  },
  {
    group: 'reworded',
    question: 'At what mileage did I last get the engine lubricant swapped?',
    relevant: ['n055'],
  },
  { group: 'reworded', question: 'What was wrong with my Swiss cheese plant?', relevant: ['n127'] },
  {
    group: 'reworded',
    question:
      'Which reading taught me about cues hinting to people how an item should be operated?',
    relevant: ['n132'],
  },
  {
    group: 'reworded',
    question: "What was the story of the Taiwanese semiconductor giant's founder?",
    relevant: ['n148'],
  },
  {
    group: 'reworded',
    question: 'How much drinking supply should we stash for a major quake?',
    relevant: ['n150'],
  },
  {
    group: 'reworded',
    question: "What part did I swap when the boiler's little flame wouldn't stay on?",
    relevant: ['n162'],
  },
  {
    group: 'reworded',
    question: 'When will the beeping detectors have to be swapped again?',
    relevant: ['n194'],
  },
  {
    group: 'reworded',
    question: 'When did the replacement ID booklet for going abroad show up in the mail?',
    relevant: ['n209'],
  },
  {
    group: 'reworded',
    question: 'How much was the timber for the storage racks I put up this spring?',
    relevant: ['n222'],
  },
  {
    group: 'reworded',
    question: 'What present did my husband give me on my thirty-fourth?',
    relevant: ['n228'],
  },
  {
    group: 'reworded',
    question: "Where did we pick up the season's earliest local berries?",
    relevant: ['n225'],
  },
  {
    group: 'reworded',
    question:
      'Which autobiography is about a woman who never went to class as a kid but ended up earning a PhD from an elite British university?',
    relevant: ['n205'],
  },
  {
    group: 'reworded',
    question: 'Which novel is narrated by a robot companion purchased for an ill child?',
    relevant: ['n182'],
  },
  {
    group: 'reworded',
    question: 'Which novel has an alien arachnid mechanic who speaks in tones?',
    relevant: ['n073'],
  },
  {
    group: 'reworded',
    question: "Where is the group retreat this autumn and what's the per-head spend?",
    relevant: ['n122'],
  },
  {
    group: 'reworded',
    question: 'What did I pass along to the new teammate when the pager went to her?',
    relevant: ['n133'],
  },
  {
    group: 'reworded',
    question: 'What fraction of request timelines will we retain, per the lunchtime presentation?',
    relevant: ['n159'],
  },
  {
    group: 'reworded',
    question: 'What made lookups crawl for almost an hour in early December?',
    relevant: ['n177'],
  },
  {
    group: 'reworded',
    question: 'How much is the woman doing our returns charging us?',
    relevant: ['n213'],
  },
  {
    group: 'reworded',
    question: 'How do my husband and I divide the bills at home?',
    relevant: ['n037'],
  },
  {
    group: 'reworded',
    question: 'What did I get my mother when she turned another year older in spring?',
    relevant: ['n041'],
  },
  {
    group: 'reworded',
    question: 'Which computer did I buy to replace my aging Mac notebook?',
    relevant: ['n098'],
  },
  {
    group: 'reworded',
    question: 'Which dish would make my mother-in-law sick?',
    relevant: ['n102'],
  },
  {
    group: 'reworded',
    question: 'Did I have any side effects from my autumn jabs?',
    relevant: ['n146'],
  },
  {
    group: 'reworded',
    question: 'What time does the bird need to go in for the November feast?',
    relevant: ['n165'],
  },
  {
    group: 'reworded',
    question: 'How consistent was I at sitting quietly at dawn in the opening weeks of the year?',
    relevant: ['n192'],
  },
  {
    group: 'reworded',
    question: 'What are my personal guidelines for chatbot-written software?',
    relevant: ['n196'],
  },
  {
    group: 'reworded',
    question: 'Which no-cost hanging walkway are we visiting up in BC?',
    relevant: ['n227'],
  },
  {
    group: 'reworded',
    question: 'How long did moving all the subscribers over take in the rehearsal?',
    relevant: ['n080'],
  },
  {
    group: 'reworded',
    question: 'How are we mirroring live edits from the main app into the reporting warehouse?',
    relevant: ['n065'],
  },
  {
    group: 'reworded',
    question: 'How warm was it on my longest weekend jog in early July?',
    relevant: ['n099'],
  },
  {
    group: 'reworded',
    question:
      "How do I match something only if it's preceded by a dollar sign without capturing the symbol?",
    relevant: ['n168'],
  },
  { group: 'reworded', question: 'How did my boss grade me in December?', relevant: ['n176'] },
  {
    group: 'reworded',
    question: 'Back in early spring, what did my manager say I still needed to move up a level?',
    relevant: ['n029'],
  },
  {
    group: 'reworded',
    question: "What's the fixed internal address of our file server box?",
    relevant: ['n012'],
  },
  {
    group: 'reworded',
    question: 'What percentage of my pay do I set aside for old age through my job?',
    relevant: ['n009'],
  },
  { group: 'reworded', question: 'How big should our rainy-day cushion be?', relevant: ['n004'] },
  {
    group: 'reworded',
    question: 'What mix of dirt did we fill the vegetable boxes with?',
    relevant: ['n052'],
  },
  {
    group: 'reworded',
    question: 'Where did we pitch our shelter on the peninsula?',
    relevant: ['n103'],
  },
  {
    group: 'reworded',
    question: "What quick meal uses yesterday's grains and fermented napa cabbage?",
    relevant: ['n094'],
  },
  // zh: Chinese questions about Chinese notes.
  { group: 'zh', question: '红烧肉要小火炖多久？', relevant: ['n013'] },
  { group: 'zh', question: '三体里的黑暗森林法则是什么意思？', relevant: ['n092'] },
  { group: 'zh', question: '春节回国的航班哪天出发？', relevant: ['n175'] },
  { group: 'zh', question: '爸爸的降压药吃的是什么？', relevant: ['n141'] },
  { group: 'zh', question: '给爸爸 65 岁生日准备了什么礼物？', relevant: ['n113'] },
  { group: 'zh', question: '妈妈甲状腺上的结节多久要复查？', relevant: ['n229'] },
  { group: 'zh', question: '爸爸做胃镜切掉的息肉是良性的吗？', relevant: ['n230'] },
  { group: 'zh', question: '回杭州体检那天早上几点去，要不要空腹？', relevant: ['n231'] },
  { group: 'zh', question: '外婆的老房子最后租了多少钱一个月？', relevant: ['n232'] },
  { group: 'zh', question: '表妹小雨最后选了徐汇还是浦东的房子？', relevant: ['n233'] },
  { group: 'zh', question: '爸妈家厨房的抽油烟机买的什么牌子？', relevant: ['n235'] },
  { group: 'zh', question: '卫生间的闭水试验做了多长时间？', relevant: ['n236'] },
  { group: 'zh', question: '番茄炒蛋的鸡蛋要炒到什么程度盛出来？', relevant: ['n238'] },
  { group: 'zh', question: '糖醋排骨的“一二三四五”指的是什么？', relevant: ['n240'] },
  { group: 'zh', question: '去成都看熊猫几点到比较好？', relevant: ['n241'] },
  { group: 'zh', question: '上海团队的报表金额为什么差了几分钱？', relevant: ['n244'] },
  // cross: across languages, English questions about Chinese notes and Chinese questions about
  // English ones.
  { group: 'cross', question: "What did the doctor find on my mom's thyroid?", relevant: ['n229'] },
  {
    group: 'cross',
    question: "How much rent do we get for grandma's old apartment?",
    relevant: ['n232'],
  },
  { group: 'cross', question: 'How long do the cola chicken wings simmer?', relevant: ['n239'] },
  {
    group: 'cross',
    question: 'What poem did Lily recite at her Chinese school performance?',
    relevant: ['n247'],
  },
  {
    group: 'cross',
    question: "Which dishes did we cook for the New Year's Eve dinner in Hangzhou?",
    relevant: ['n199'],
  },
  {
    group: 'cross',
    question: 'What is the dark forest idea in The Three-Body Problem?',
    relevant: ['n092'],
  },
  {
    group: 'cross',
    question: 'Which places did we see on the day trip around West Lake?',
    relevant: ['n200'],
  },
  { group: 'cross', question: '我的半程马拉松正式成绩是多少？', relevant: ['n151'] },
  { group: 'cross', question: '京都的温泉旅馆几点可以入住？', relevant: ['n191'] },
  { group: 'cross', question: '浴缸重新打胶以后要等多久才能洗澡？', relevant: ['n081'] },
  { group: 'cross', question: '日本铁路通票到底值不值得买？', relevant: ['n201'] },
  { group: 'cross', question: '给老公的结婚一周年礼物买了什么？', relevant: ['n136'] },
  { group: 'cross', question: '车险续保为什么涨价了？', relevant: ['n131'] },
  // typo: keyword questions with a misspelt word or two (transposed or missing letters).
  { group: 'typo', question: 'What time is check-in at the ryokun?', relevant: ['n191'] },
  { group: 'typo', question: 'How do I get rid of aphds on the roses?', relevant: ['n072'] },
  { group: 'typo', question: 'What temprature is the water heater set to?', relevant: ['n162'] },
  { group: 'typo', question: 'how do i fix the dishwaser not draining', relevant: ['n070'] },
  {
    group: 'typo',
    question: "What's the feeding ratio for my sourdough starer?",
    relevant: ['n016'],
  },
  { group: 'typo', question: 'How long do I bake the banana braed?', relevant: ['n059'] },
  { group: 'typo', question: "What did the vet say about Miso's wieght?", relevant: ['n115'] },
  {
    group: 'typo',
    question: 'Which Postgres opeartor did we pick for Harbor?',
    relevant: ['n071'],
  },
  {
    group: 'typo',
    question: 'Which race am I leaning towards for my first full marathn?',
    relevant: ['n226'],
  },
  { group: 'typo', question: 'Why are the monstera leaves turning yelow?', relevant: ['n127'] },
  // multi: more than one note answers; recall@5 counts each of them.
  {
    group: 'multi',
    question: 'What caused customers to get two invoices after we moved billing to Stripe?',
    relevant: ['n084', 'n088'],
  },
  { group: 'multi', question: 'Where are we staying in Kyoto?', relevant: ['n191', 'n198'] },
  { group: 'multi', question: 'Gift ideas for my niece Lily?', relevant: ['n039', 'n173'] },
  { group: 'multi', question: "How much did Miso's dental work cost?", relevant: ['n115', 'n140'] },
  {
    group: 'multi',
    question: 'Why do prepared statements break behind PgBouncer in transaction mode?',
    relevant: ['n212', 'n101'],
  },
  {
    group: 'multi',
    question: 'Which of my recipes can be made in the Instant Pot?',
    relevant: ['n011', 'n185'],
  },
  { group: 'multi', question: '妈妈教我做的菜有哪些？', relevant: ['n013', 'n181', 'n185'] },
  {
    group: 'multi',
    question: 'Which books on habit formation did I write notes about?',
    relevant: ['n005', 'n123'],
  },
  {
    group: 'multi',
    question: 'What bug did the staged rollout catch when Atlas launched?',
    relevant: ['n211', 'n216'],
  },
  { group: 'multi', question: 'How much did the ryokan cost us?', relevant: ['n191', 'n220'] },
  { group: 'multi', question: '爸妈体检查出了哪些问题？', relevant: ['n141', 'n229', 'n230'] },
  {
    group: 'multi',
    question: "What's my cousin's rent in Shanghai now, and what was it when she moved in?",
    relevant: ['n233', 'n234'],
  },
  // The second batch's questions: about its short notes and about one detail of longer ones, and
  // questions no note answers (group `none`).
  {
    group: 'keyword',
    question: 'How long does the cold brew sit in the fridge?',
    relevant: ['n295'],
  },
  { group: 'keyword', question: "What's the Spanish word for ladle?", relevant: ['n305'] },
  { group: 'keyword', question: 'How do I link notes with double brackets?', relevant: ['n248'] },
  { group: 'keyword', question: 'Which feat did Wren take at level 4?', relevant: ['n281'] },
  {
    group: 'reworded',
    question: 'Which leafy green did I end up getting when the store had run out?',
    relevant: ['n255'],
  },
  {
    group: 'reworded',
    question: "Did I already add paper cones for the dripper to what I'm buying?",
    relevant: ['n254'],
  },
  {
    group: 'reworded',
    question: 'Which snack does my husband want from the Asian supermarket?',
    relevant: ['n256'],
  },
  {
    group: 'reworded',
    question: 'What do I usually grab at the shop where the staff wear Hawaiian shirts?',
    relevant: ['n258'],
  },
  {
    group: 'reworded',
    question: 'Who fixed the blocked pipe to the street, and how do I reach him?',
    relevant: ['n259'],
  },
  {
    group: 'reworded',
    question: 'Which weekday do they haul away our rubbish?',
    relevant: ['n261'],
  },
  {
    group: 'reworded',
    question: "How do I get online at my friend's family getaway on the island?",
    relevant: ['n262'],
  },
  {
    group: 'reworded',
    question: 'What must I do before lighting a fire at the island getaway?',
    relevant: ['n262'],
  },
  {
    group: 'reworded',
    question: "If I'm locked out, how do I get back inside our place?",
    relevant: ['n264'],
  },
  {
    group: 'reworded',
    question: 'How much was the yearly registration for the Civic?',
    relevant: ['n266'],
  },
  {
    group: 'reworded',
    question: 'Where do I get the wheels swapped front-to-back without paying?',
    relevant: ['n267'],
  },
  {
    group: 'reworded',
    question: 'What turned out to be behind the dashboard warning in January?',
    relevant: ['n268'],
  },
  {
    group: 'reworded',
    question: 'How much does the person who feeds our kitty while we travel charge each time?',
    relevant: ['n269'],
  },
  {
    group: 'reworded',
    question: 'How do I calm the visiting pup when the Independence Day rockets go off?',
    relevant: ['n270'],
  },
  {
    group: 'reworded',
    question: 'When do I put the parasite drops on our kitty?',
    relevant: ['n271'],
  },
  {
    group: 'reworded',
    question: 'Did we end up getting a health plan for the kitty?',
    relevant: ['n272'],
  },
  {
    group: 'reworded',
    question: 'What food is banned at the summer program my niece attends in July?',
    relevant: ['n274'],
  },
  {
    group: 'reworded',
    question: 'What did the ceramics instructor advise when my work kept caving in?',
    relevant: ['n275'],
  },
  {
    group: 'reworded',
    question: 'Which passages of the Debussy am I stuck on?',
    relevant: ['n277'],
  },
  {
    group: 'reworded',
    question: "What's my adventurer's bird called in our tabletop campaign?",
    relevant: ['n279'],
  },
  {
    group: 'reworded',
    question: 'By when did my mentee promise the proposal for purging stale data?',
    relevant: ['n282'],
  },
  {
    group: 'reworded',
    question: 'Whom is my mentee tagging along with for the database version bump?',
    relevant: ['n283'],
  },
  {
    group: 'reworded',
    question: "What's my boss asking me to stop doing now that I've moved up?",
    relevant: ['n285'],
  },
  {
    group: 'reworded',
    question: 'What salary did the automation startup that approached me in 2024 dangle?',
    relevant: ['n286'],
  },
  { group: 'reworded', question: 'What does my husband charge per hour?', relevant: ['n288'] },
  {
    group: 'reworded',
    question: 'What did I put down against the slimy critters munching the salad greens?',
    relevant: ['n290'],
  },
  {
    group: 'reworded',
    question: 'Which aromatic pod spice did I start putting in my overripe-fruit loaf?',
    relevant: ['n292'],
  },
  {
    group: 'reworded',
    question: 'How long do I cover the pan in that North African dish?',
    relevant: ['n293'],
  },
  { group: 'reworded', question: 'When does the newspaper discount run out?', relevant: ['n299'] },
  {
    group: 'reworded',
    question: 'When is the celebration for the expecting mom, and where?',
    relevant: ['n301'],
  },
  {
    group: 'reworded',
    question: 'Does our house policy protect us in a big quake?',
    relevant: ['n306'],
  },
  {
    group: 'reworded',
    question: 'Which microcontroller runs my hobby build for the houseplant?',
    relevant: ['n310'],
  },
  {
    group: 'reworded',
    question: 'Why does my houseplant gadget keep going flat so quickly?',
    relevant: ['n311'],
  },
  {
    group: 'reworded',
    question: 'What medicine am I taking along for the Spring Festival visit?',
    relevant: ['n320'],
  },
  {
    group: 'reworded',
    question: 'How much would it be to replace my bite splint for clenching while I sleep?',
    relevant: ['n322'],
  },
  {
    group: 'reworded',
    question: 'Should I worry that my freshly patched tooth twinges with icy drinks?',
    relevant: ['n323'],
  },
  {
    group: 'reworded',
    question: 'How nearsighted am I now, per the optometrist?',
    relevant: ['n324'],
  },
  {
    group: 'reworded',
    question: 'What am I making with all those eggs from the bulk store?',
    relevant: ['n341'],
  },
  {
    group: 'reworded',
    question: 'How much went to the animal shelter from us in December?',
    relevant: ['n344'],
  },
  {
    group: 'reworded',
    question: 'When do I help out with the kitties at the rescue?',
    relevant: ['n351'],
  },
  {
    group: 'reworded',
    question: 'Who shot the pictures when we tied the knot, and how much was she?',
    relevant: ['n352'],
  },
  {
    group: 'reworded',
    question: 'How did I do on the mock version of my summer proficiency exam?',
    relevant: ['n354'],
  },
  {
    group: 'reworded',
    question: "What temperature for my mother-in-law's skillet bread?",
    relevant: ['n355'],
  },
  { group: 'zh', question: '葱油拌面的葱要炸多久？', relevant: ['n297'] },
  { group: 'zh', question: '酸辣土豆丝怎么炒才脆？', relevant: ['n298'] },
  { group: 'zh', question: '妈妈种一颗牙大概要多少钱？', relevant: ['n329'] },
  { group: 'zh', question: '外婆摔跤以后做的是什么手术？', relevant: ['n330'] },
  { group: 'zh', question: '外婆老房子的水管漏了，修一下花了多少钱？', relevant: ['n332'] },
  { group: 'zh', question: '舅舅的电话号码是多少？', relevant: ['n338'] },
  {
    group: 'cross',
    question: "What's the wifi password at my parents' place in Hangzhou?",
    relevant: ['n263'],
  },
  { group: 'cross', question: "What's my parents' mailing address?", relevant: ['n337'] },
  { group: 'cross', question: 'Which vinegar is on my Chinese shopping list?', relevant: ['n257'] },
  {
    group: 'cross',
    question: 'What am I bringing back to Hangzhou for my parents and grandma?',
    relevant: ['n334'],
  },
  { group: 'cross', question: '帮我们喂猫的人来一次收多少钱？', relevant: ['n269'] },
  { group: 'cross', question: '车辆注册续费花了多少钱？', relevant: ['n266'] },
  { group: 'cross', question: '今年的房产税是多少，什么时候交？', relevant: ['n308'] },
  { group: 'typo', question: 'whats the wifi pasword at the cabin', relevant: ['n262'] },
  { group: 'typo', question: "What's the plumbers phone numbr?", relevant: ['n259'] },
  {
    group: 'typo',
    question: 'How long do I steam the stiky rice for the mango desert?',
    relevant: ['n296'],
  },
  { group: 'typo', question: "What's my new contact lense prescripton?", relevant: ['n324'] },
  { group: 'typo', question: 'When does Miso get her flea medecine?', relevant: ['n271'] },
  { group: 'typo', question: 'Which sofa did we oder from Article?', relevant: ['n345'] },
  {
    group: 'multi',
    question: 'What action items did I take on in my 1:1s with Dev?',
    relevant: ['n282', 'n283', 'n284'],
  },
  {
    group: 'multi',
    question: 'What happened in the last two D&D sessions?',
    relevant: ['n280', 'n281'],
  },
  {
    group: 'multi',
    question: 'What did the dentist find at my cleanings?',
    relevant: ['n321', 'n322'],
  },
  { group: 'multi', question: '外婆摔跤以后现在怎么样了？', relevant: ['n330', 'n331'] },
  { group: 'multi', question: "Where do we buy Miso's litter?", relevant: ['n273', 'n341'] },
  {
    group: 'multi',
    question: "What's on my Saturday to-do lists?",
    relevant: ['n317', 'n318'],
  },
  // none: things this person could have written down but did not; no note answers them.
  { group: 'none', question: "What's my passport number?", relevant: [] },
  { group: 'none', question: 'Where did we go on our honeymoon?', relevant: [] },
  { group: 'none', question: 'Which gym did I sign up for?', relevant: [] },
  { group: 'none', question: "What's the Netflix password?", relevant: [] },
  { group: 'none', question: "When does my driver's license expire?", relevant: [] },
  { group: 'none', question: 'How big was my raise when I got promoted?', relevant: [] },
  { group: 'none', question: 'Who was the DJ at our wedding?', relevant: [] },
  { group: 'none', question: "What's the name of Lily's teacher?", relevant: [] },
  { group: 'none', question: "What's Mei's home address in Richmond?", relevant: [] },
  { group: 'none', question: 'Who is our mortgage lender?', relevant: [] },
  { group: 'none', question: "When is Biscuit's birthday?", relevant: [] },
  {
    group: 'none',
    question: 'Which dermatologist did I see about the mole on my back?',
    relevant: [],
  },
  { group: 'none', question: "What's the street address of Dana's parents' cabin?", relevant: [] },
  { group: 'none', question: 'When is my next eye exam?', relevant: [] },
  { group: 'none', question: "What's my Costco membership number?", relevant: [] },
  { group: 'none', question: "When is Sam's next dentist appointment?", relevant: [] },
  { group: 'none', question: '外婆的生日是哪天？', relevant: [] },
  { group: 'none', question: '小雨在上海的公司叫什么名字？', relevant: [] },
];
