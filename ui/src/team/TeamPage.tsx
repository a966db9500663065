// "Équipe" (issue 41, PRODUCT §13 "Teams"): an owner's members, their
// roles, the invitations pending, and the invitation form. Owners only:
// another role reads that the screen is not theirs.
import { Alert, Button, Container, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { dayOf, formatDayInWords } from '../format'
import { useUser } from '../store/hooks'
import { useLocation } from 'wouter'
import { cancelInvitation, invite, leaveOrganisation, loadTeam, removeMember, setRole, useTeam } from '../store/team'
import { ROLE_HINTS, ROLE_LABELS, type Role, may, rolesOf } from './roles'

export const TEAM_TEXTS = {
  title: 'Équipe',
  intro:
    'Invitez les personnes qui travaillent avec vous : chacune a son propre accès et ne voit que ce que son rôle lui permet.',
  notOwner: 'Seuls les propriétaires de l’équipe la gèrent.',
  members: 'Membres',
  name: 'Nom',
  email: 'Adresse email',
  role: 'Rôle',
  remove: 'Retirer',
  you: '(vous)',
  pending: 'Invitations en attente',
  expires: 'Expire le',
  expired: 'Expirée : renvoyez-la',
  resend: 'Renvoyer',
  cancel: 'Annuler',
  invite: 'Inviter une personne',
  inviteButton: 'Envoyer l’invitation',
  confirmRemove: (name: string) => `Retirer ${name} de l’équipe ? Son accès prend fin immédiatement.`,
  leave: 'Quitter cette organisation',
  confirmLeave: (name: string) =>
    `Quitter ${name} ? Votre accès à cette organisation prend fin ; ses documents restent les siens.`,
  // The daemon's refusal of the last owner (core/teams MsgLastOwner), said before any call.
  lastOwner: "L'équipe doit garder au moins un propriétaire : nommez-en un autre avant.",
} as const

export function TeamPage() {
  const user = useUser()
  const { data, status } = useTeam()
  const owner = may(user?.role, 'get-team')
  useEffect(() => {
    if (owner) void loadTeam()
  }, [owner])
  if (!user) return null
  if (!owner) {
    return (
      <Container size="md" py="md">
        <Title order={1}>{TEAM_TEXTS.title}</Title>
        <Alert mt="md">{TEAM_TEXTS.notOwner}</Alert>
      </Container>
    )
  }
  const roles = rolesOf(user.type)
  const options = roles.map((r) => ({ value: r, label: ROLE_LABELS[r] }))
  const now = Date.now()
  return (
    <Container size="md" py="md">
      <Stack>
        <Title order={1}>{TEAM_TEXTS.title}</Title>
        <Text>{TEAM_TEXTS.intro}</Text>
        <Title order={2}>{TEAM_TEXTS.members}</Title>
        <Table aria-label={TEAM_TEXTS.members} aria-busy={status === 'busy'}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{TEAM_TEXTS.name}</Table.Th>
              <Table.Th>{TEAM_TEXTS.email}</Table.Th>
              <Table.Th>{TEAM_TEXTS.role}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.members ?? []).map((m) => {
              const me = m.personId === user.person?._id
              return (
                <Table.Tr key={m.personId}>
                  <Table.Td>
                    {m.name} {me ? TEAM_TEXTS.you : null}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.email}</Table.Td>
                  <Table.Td>
                    <NativeSelect
                      aria-label={`${TEAM_TEXTS.role} de ${m.name}`}
                      data={options}
                      value={m.role}
                      onChange={(e) => void setRole(m.personId, e.currentTarget.value as Role)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Button
                      variant="subtle"
                      color="red"
                      aria-label={`${TEAM_TEXTS.remove} ${m.name}`}
                      onClick={() => {
                        if (window.confirm(TEAM_TEXTS.confirmRemove(m.name))) void removeMember(m.personId)
                      }}
                    >
                      {TEAM_TEXTS.remove}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              )
            })}
          </Table.Tbody>
        </Table>
        {data && data.invitations.length > 0 ? (
          <>
            <Title order={2}>{TEAM_TEXTS.pending}</Title>
            <Table aria-label={TEAM_TEXTS.pending}>
              <Table.Tbody>
                {data.invitations.map((i) => (
                  <Table.Tr key={i._id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{i.email}</Table.Td>
                    <Table.Td>{ROLE_LABELS[i.role]}</Table.Td>
                    <Table.Td>
                      {i.expiresAt > now
                        ? `${TEAM_TEXTS.expires} ${formatDayInWords(dayOf(new Date(i.expiresAt)))}`
                        : TEAM_TEXTS.expired}
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button variant="subtle" onClick={() => void invite(i.email, i.role)}>
                          {TEAM_TEXTS.resend}
                        </Button>
                        <Button variant="subtle" color="red" onClick={() => void cancelInvitation(i._id)}>
                          {TEAM_TEXTS.cancel}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        ) : null}
        <InviteForm roles={roles} />
        {data ? (
          <LeaveSection orgName={user.name} owners={data.members.filter((m) => m.role === 'owner').length} />
        ) : null}
      </Stack>
    </Container>
  )
}

/**
 * « Quitter cette organisation » for an owner (issue 41): possible while
 * another owner remains; the last one reads why not, as the daemon would
 * answer (409), and sends nothing.
 */
function LeaveSection({ orgName, owners }: { orgName: string; owners: number }) {
  const [, navigate] = useLocation()
  const [refused, setRefused] = useState(false)
  const leave = () => {
    if (owners <= 1) {
      setRefused(true)
      return
    }
    if (!window.confirm(TEAM_TEXTS.confirmLeave(orgName))) return
    void leaveOrganisation().then((ok) => {
      if (ok) navigate('/')
    })
  }
  return (
    <Stack gap="xs" align="flex-start">
      <Button variant="outline" color="red" onClick={leave}>
        {TEAM_TEXTS.leave}
      </Button>
      {refused ? (
        <Alert color="orange" role="alert">
          {TEAM_TEXTS.lastOwner}
        </Alert>
      ) : null}
    </Stack>
  )
}

function InviteForm({ roles }: { roles: Role[] }) {
  const [email, setEmail] = useState('')
  const [role, setRoleChoice] = useState<Role>(roles[1] ?? 'owner')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setErrors({})
    const ok = await invite(email.trim(), role, setErrors)
    setBusy(false)
    if (ok) setEmail('')
  }
  return (
    <form onSubmit={(e) => void submit(e)} aria-label={TEAM_TEXTS.invite}>
      <Stack gap="xs">
        <Title order={2}>{TEAM_TEXTS.invite}</Title>
        <TextInput
          label={TEAM_TEXTS.email}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={errors.email}
          required
        />
        <NativeSelect
          label={TEAM_TEXTS.role}
          data={roles.map((r) => ({ value: r, label: `${ROLE_LABELS[r]} : ${ROLE_HINTS[r]}` }))}
          value={role}
          onChange={(e) => setRoleChoice(e.currentTarget.value as Role)}
          error={errors.role}
        />
        <Group>
          <Button type="submit" loading={busy}>
            {TEAM_TEXTS.inviteButton}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
