// The shop-only panel of the dashboard (PRODUCT §2 "Rewards panel"): the
// "Soutien financier" card (level, progress toward the next one, "Devenir
// ambassadeur") and the "Score équitable" card (score, rank, monthly
// purchases, months of commitment), from GET /api/rewards.
import { Anchor, Badge, Button, Card, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core'
import { useState } from 'react'
import { formatEUR, formatMonthYear } from '../format'
import { useRewards, useRewardsLoading } from '../store/dashboard'
import { loadRewards } from '../store/rewards'
import type { RewardsStanding } from '../types'
import { type Progress as ProgressToNext, levelByKey, progressToNext } from './levels'
import { RewardsModal, type RewardsView } from './RewardsModal'

/** 1 → "1er", 2 → "2e". */
export function ordinal(n: number): string {
  return n === 1 ? '1er' : `${n}e`
}

/** What the next level still needs, in words ("" at the top level). */
export function missingText(progress: ProgressToNext, contribution: number): string {
  if (!progress.next) return ''
  const parts: string[] = []
  if (progress.missingPurchases > 0) parts.push(`${formatEUR(progress.missingPurchases)} d'achats mensuels`)
  if (progress.missingContribution > 0) {
    parts.push(
      contribution > 0
        ? `${formatEUR(progress.missingContribution)} de contribution mensuelle en plus`
        : `une contribution mensuelle d'au moins ${formatEUR(progress.next.contribution)}`,
    )
  }
  return parts.length ? `Pour devenir ${progress.next.name}, il vous manque ${parts.join(' et ')}.` : ''
}

const LEVEL_COLORS: Record<string, string> = {
  sympathisant: 'gray',
  militant: 'teal',
  ambassadeur: 'green',
  'super-ambassadeur': 'orange',
}

function SupportCard({ standing, onOpen }: { standing: RewardsStanding; onOpen: (view: RewardsView) => void }) {
  const level = levelByKey(standing.level)
  const progress = progressToNext(standing.purchases.monthly, standing.contribution?.amount ?? 0)
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="support-title">
      <Stack gap="sm">
        <Group justify="space-between" align="center">
          <Title order={2} size="h4" id="support-title">
            Soutien financier
          </Title>
          <Badge size="lg" variant="light" color={LEVEL_COLORS[level.key]} data-testid="rewards-level">
            {level.name}
          </Badge>
        </Group>
        {progress.next ? (
          <Stack gap={4}>
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                Vers {progress.next.name}
              </Text>
              <Text size="sm" fw={600}>
                {progress.percent} %
              </Text>
            </Group>
            <Progress
              value={progress.percent}
              size="lg"
              radius="xl"
              aria-label={`Progression vers ${progress.next.name}`}
            />
            <Text size="xs" c="dimmed">
              {missingText(progress, standing.contribution?.amount ?? 0)}
            </Text>
          </Stack>
        ) : (
          <Text size="sm">Vous avez atteint le plus haut niveau de participation. Merci !</Text>
        )}
        {standing.contribution ? (
          <Text size="sm">
            Votre contribution : <strong>{formatEUR(standing.contribution.amount)} par mois</strong>
            <Text span size="xs" c="dimmed">
              {' '}
              (engagement enregistré, le prélèvement sera mis en place)
            </Text>
          </Text>
        ) : null}
        <Group gap="sm">
          <Button onClick={() => onOpen('explanation')}>
            {standing.contribution ? 'Modifier ma contribution' : 'Devenir ambassadeur'}
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={() => onOpen('levels')}>
            Les niveaux
          </Anchor>
        </Group>
      </Stack>
    </Card>
  )
}

function Row({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <Stack gap={0}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text fw={700} data-testid={testId}>
          {value}
        </Text>
      </Group>
      {detail ? (
        <Text size="xs" c="dimmed" ta="right">
          {detail}
        </Text>
      ) : null}
    </Stack>
  )
}

function ScoreCard({ standing, onOpen }: { standing: RewardsStanding; onOpen: (view: RewardsView) => void }) {
  const { lastMonth, currentMonth, monthly } = standing.purchases
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="score-title">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4" id="score-title">
            Score équitable
          </Title>
          <Text fw={800} size="xl" c="green.8" data-testid="rewards-score">
            {standing.score} pts
          </Text>
        </Group>
        <Stack gap={6}>
          <Row
            label="Rang"
            testId="rewards-rank"
            value={`${ordinal(standing.rank)} sur ${standing.shops} magasin${standing.shops > 1 ? 's' : ''}`}
          />
          <Row
            label="Achats mensuels"
            testId="rewards-purchases"
            value={formatEUR(monthly)}
            detail={`${formatMonthYear(lastMonth.month)} : ${formatEUR(lastMonth.value)} · ${formatMonthYear(currentMonth.month)} (en cours) : ${formatEUR(currentMonth.value)}`}
          />
          <Row label="Mois d'engagement" testId="rewards-months" value={String(standing.monthsOfCommitment)} />
        </Stack>
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => onOpen('explanation')}>
          Comment est-il calculé ?
        </Anchor>
      </Stack>
    </Card>
  )
}

/** Both cards and their modal. The caller loads the standing (`loadRewards`). */
export function RewardsPanel() {
  const standing = useRewards() as RewardsStanding | null
  const status = useRewardsLoading()
  const [opened, setOpened] = useState(false)
  const [view, setView] = useState<RewardsView>('explanation')
  const open = (v: RewardsView) => {
    setView(v)
    setOpened(true)
  }

  if (!standing) {
    return (
      <Card withBorder radius="md" padding="lg">
        {status === 'error' ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Votre programme ambassadeur n'a pas pu être chargé.</Text>
            <Button
              variant="light"
              size="xs"
              aria-label="Réessayer de charger le programme ambassadeur"
              onClick={() => void loadRewards()}
            >
              Réessayer
            </Button>
          </Stack>
        ) : (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              Chargement du programme ambassadeur
            </Text>
          </Group>
        )}
      </Card>
    )
  }

  return (
    <Stack gap="md" data-testid="rewards-panel">
      <SupportCard standing={standing} onOpen={open} />
      <ScoreCard standing={standing} onOpen={open} />
      <RewardsModal
        opened={opened}
        onClose={() => setOpened(false)}
        standing={standing}
        view={view}
        onViewChange={setView}
      />
    </Stack>
  )
}
