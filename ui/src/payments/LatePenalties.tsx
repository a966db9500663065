import type { Snapshot } from 'valtio'
import { Accordion, Stack, Table, Text } from '@mantine/core'
import { formatDay, formatEUR, formatNumber } from '../format'
import type { PaymentAccount } from './types'

/** The French texts of the penalties' breakdown. */
export const PENALTY_TEXTS = {
  show: 'Détail par facture',
  unpaid: 'reste impayée',
  carried:
    "* Taux de la BCE de ce semestre non renseigné par l'administrateur de Primeur : celui du semestre précédent est repris.",
} as const

/** "12,15 %", with a star when the semester's ECB rate is carried from an earlier one. */
const rate = (value: number, listed: boolean) => `${formatNumber(value)} %${listed ? '' : ' *'}`

/**
 * What a producer may claim of a shop (PRODUCT §16 "Penalties, as
 * information"): the sums, then behind a "Détail par facture" disclosure
 * each invoice paid late or still overdue with its periods — from the day
 * after the due date, each at what was left to pay then and the rate of its
 * semester (ECB + 10 points) — and its 40 € indemnity.
 */
export function LatePenalties({ account }: { account: Snapshot<PaymentAccount> }) {
  const carried = account.late.some((l) => l.periods.some((p) => !p.rateListed))
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        À titre d'information, selon les conditions de vos factures, vous pouvez réclamer des pénalités de retard de{' '}
        {formatEUR(account.penalties)} et des indemnités forfaitaires de recouvrement de{' '}
        {formatEUR(account.indemnities)} (40 € par facture payée en retard). Elles ne sont pas ajoutées au reste à
        payer.
      </Text>
      <Accordion chevronPosition="left" variant="default">
        <Accordion.Item value="late">
          <Accordion.Control aria-label={`${PENALTY_TEXTS.show} : ${account.partnerName}`}>
            {PENALTY_TEXTS.show}
          </Accordion.Control>
          <Accordion.Panel>
            <Table.ScrollContainer minWidth={560} type="native">
              <Table aria-label={`Pénalités de retard — ${account.partnerName}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Facture</Table.Th>
                    <Table.Th>Période de retard</Table.Th>
                    <Table.Th ta="right">Jours</Table.Th>
                    <Table.Th ta="right">Reste dû</Table.Th>
                    <Table.Th ta="right">Taux</Table.Th>
                    <Table.Th ta="right">Pénalités</Table.Th>
                    <Table.Th ta="right">Indemnité</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {account.late.flatMap((l) =>
                    l.periods.map((p, i) => (
                      <Table.Tr key={`${l.documentId}-${p.from}`}>
                        {i === 0 ? (
                          <Table.Td rowSpan={l.periods.length}>
                            {l.number}
                            <Text size="xs" c="dimmed">
                              échéance le {formatDay(l.dueDate)},{' '}
                              {l.paidOff ? `payée le ${formatDay(l.paidOff)}` : PENALTY_TEXTS.unpaid}
                            </Text>
                          </Table.Td>
                        ) : null}
                        <Table.Td>
                          du {formatDay(p.from)} au {formatDay(p.to)}
                        </Table.Td>
                        <Table.Td ta="right">{p.days}</Table.Td>
                        <Table.Td ta="right">{formatEUR(p.balance)}</Table.Td>
                        <Table.Td ta="right">{rate(p.rate, p.rateListed)}</Table.Td>
                        <Table.Td ta="right">{formatEUR(p.penalty)}</Table.Td>
                        {i === 0 ? (
                          <Table.Td ta="right" rowSpan={l.periods.length}>
                            {formatEUR(l.indemnity)}
                          </Table.Td>
                        ) : null}
                      </Table.Tr>
                    )),
                  )}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text size="xs" c="dimmed" mt={4}>
              Taux : celui de la BCE au 1er janvier (1er semestre) ou au 1er juillet (2e semestre), majoré de 10 points
              (art. L441-10 du Code de commerce), sur 365 jours ; indemnité de 40 € par facture (art. D441-5).
            </Text>
            {carried ? (
              <Text size="xs" c="dimmed">
                {PENALTY_TEXTS.carried}
              </Text>
            ) : null}
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  )
}
