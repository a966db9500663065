// The ambassador modal (PRODUCT §2 "Rewards panel"): two views, the
// explanation (with the contribution form) and the table of the four
// participation levels with a back link.
import { Alert, Anchor, Button, Group, List, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { formatEUR } from '../format'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { endContribution, pledgeContribution } from '../store/rewards'
import type { RewardsStanding } from '../types'
import {
  type ContributionField,
  type ContributionValues,
  parseAmount,
  validateContribution,
} from '../validation/contribution'
import { LEVELS, MIN_CONTRIBUTION, levelByKey } from './levels'

export type RewardsView = 'explanation' | 'levels'

export interface RewardsModalProps {
  opened: boolean
  onClose: () => void
  standing: RewardsStanding | null
  view: RewardsView
  onViewChange: (view: RewardsView) => void
}

/**
 * Pledge form: pay-what-you-want, 10 € minimum; no payment taken yet. The
 * parent remounts it (key) when the pledge changes, which resets it.
 */
function ContributionForm({ standing }: { standing: RewardsStanding | null }) {
  const current = standing?.contribution?.amount
  const form = useFormState<ContributionValues, ContributionField>(
    { amount: current ? String(current).replace('.', ',') : '' },
    validateContribution,
  )
  const submission = useSubmit()
  const [ending, setEnding] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    form.touchAll()
    const amount = parseAmount(form.values.amount.trim())
    if (!form.canSubmit || amount === null) return
    await submission.run(async () => {
      const outcome = await pledgeContribution(amount)
      if (!outcome.ok && outcome.fieldError) form.setServerErrors({ amount: outcome.fieldError })
    })
  }

  const stop = async () => {
    setEnding(true)
    await endContribution()
    setEnding(false)
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Contribution mensuelle">
      <Stack gap="xs">
        <TextInput
          label="Contribution mensuelle (€)"
          description={`Montant libre, ${MIN_CONTRIBUTION} € par mois au minimum pour couvrir les frais bancaires.`}
          inputMode="decimal"
          placeholder="Par exemple 25"
          value={form.values.amount}
          onChange={(e) => form.setValue('amount', e.currentTarget.value)}
          onBlur={() => form.touch('amount')}
          error={form.errorOf('amount')}
          rightSection={
            <Text size="sm" c="dimmed">
              €
            </Text>
          }
        />
        <Group gap="sm">
          <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
            {submission.label(current ? 'Modifier mon engagement' : 'Enregistrer mon engagement')}
          </Button>
          {current ? (
            <Button variant="subtle" color="red" onClick={stop} loading={ending}>
              Arrêter ma contribution
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  )
}

export function RewardsModal({ opened, onClose, standing, view, onViewChange }: RewardsModalProps) {
  const level = levelByKey(standing?.level)
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Programme ambassadeur"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Fermer' }}
    >
      {view === 'explanation' ? (
        <Stack gap="md" data-testid="rewards-explanation">
          <Text>
            Primeur ne prend aucune commission sur vos achats. La plateforme vit des contributions volontaires des
            magasins : elle est pérenne avec 100 soutiens à 100 € par mois.
          </Text>
          <Stack gap={4}>
            <Title order={4}>Devenir ambassadeur</Title>
            <Text size="sm">
              Votre contribution est libre, à partir de {MIN_CONTRIBUTION} € par mois. Avec plus de 1 000 € d'achats
              mensuels, elle fait de vous un Ambassadeur certifié ; à 100 € par mois et plus de 2 000 € d'achats, un
              Super Ambassadeur certifié.
            </Text>
          </Stack>
          <Alert color="blue" variant="light" title="Aucun paiement pour l'instant">
            Votre engagement est enregistré, le prélèvement sera mis en place prochainement : rien ne vous est prélevé
            aujourd'hui, et vous pouvez modifier ou arrêter votre contribution à tout moment.
          </Alert>
          {standing?.contribution ? (
            <Text size="sm">
              Votre engagement actuel : <strong>{formatEUR(standing.contribution.amount)} par mois</strong>.
            </Text>
          ) : null}
          <ContributionForm key={standing?.contribution?.updatedAt ?? 'none'} standing={standing} />
          <Stack gap={4}>
            <Title order={4}>Comment est calculé le score équitable ?</Title>
            <List size="sm" spacing={4}>
              <List.Item>
                <strong>Score = 1 point par euro d'achats mensuels + 100 points par mois d'engagement.</strong> Votre
                contribution n'entre pas dans le score.
              </List.Item>
              <List.Item>
                Achats mensuels : la valeur de vos livraisons reçues (quantités livrées, corrigées des avoirs acceptés,
                au prix convenu), sur le dernier mois complet ou sur le mois en cours s'il est plus élevé.
              </List.Item>
              <List.Item>
                Mois d'engagement : les mois où au moins un de vos besoins porte un engagement accepté avec un
                producteur, passés ou à venir.
              </List.Item>
              <List.Item>Rang : votre place parmi les magasins de la plateforme, selon les achats mensuels.</List.Item>
            </List>
          </Stack>
          <Anchor component="button" type="button" onClick={() => onViewChange('levels')} ta="left">
            Voir les 4 niveaux de participation
          </Anchor>
        </Stack>
      ) : (
        <Stack gap="md" data-testid="rewards-levels">
          <Table striped withTableBorder aria-label="Niveaux de participation">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Niveau</Table.Th>
                <Table.Th>Achats mensuels</Table.Th>
                <Table.Th>Contribution mensuelle</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {LEVELS.map((l) => (
                <Table.Tr
                  key={l.key}
                  aria-current={l.key === level.key ? 'true' : undefined}
                  fw={l.key === level.key ? 700 : undefined}
                >
                  <Table.Td>
                    {l.name}
                    {l.key === level.key ? ' (votre niveau)' : ''}
                  </Table.Td>
                  <Table.Td>{l.purchasesText}</Table.Td>
                  <Table.Td>{l.contributionText}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Anchor component="button" type="button" onClick={() => onViewChange('explanation')} ta="left">
            ← Retour
          </Anchor>
        </Stack>
      )}
    </Modal>
  )
}
