import { Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Suspense, lazy, useEffect, useMemo, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { IdentifierNotice } from '../components/IdentifierNotice'
import { Loading } from '../components/Loading'
import { PAWarning } from '../einvoicing/PAWarning'
import { shopLonLat } from '../map/geo'
import { ShopMap } from '../map/ShopMap'
import { PROFILE_PARAM, parseProfileParam } from '../onboarding/checklist'
import { SetupChecklist } from '../onboarding/SetupChecklist'
import { RewardsPanel } from '../rewards/RewardsPanel'
import { paths } from '../routing'
import { PurchasesChart } from '../stats/PurchasesChart'
import { useNeeds, useUser } from '../store/hooks'
import { useCounts, useListFetched } from '../store/lists'
import { loadRewards } from '../store/rewards'
import { logout } from '../store/session'
import type { ProfileFormField } from '../validation/profile'

// The producers' search by family, label and distance (PRODUCT §3 "Finding producers"), read with its own code.
// The profile's forms (the position picker, the e-invoicing form with
// them) load when the profile opens, not with every dashboard (issue 42).
const ProfileForm = lazy(() => import('../components/ProfileForm').then((m) => ({ default: m.ProfileForm })))
const DeliveryTermsForm = lazy(() =>
  import('../components/DeliveryTermsForm').then((m) => ({ default: m.DeliveryTermsForm })),
)
const NearbyProducers = lazy(() => import('../supplied/NearbyProducers').then((m) => ({ default: m.NearbyProducers })))

/**
 * Home of both roles (PRODUCT §2 "Dashboard"): the first steps of a new
 * account, the profile form when opened, the map of shops, the shop's
 * ambassador panel or the producer's heading, the statistics, then a footer
 * with the profile toggle and the quit button. `/?profil={field}` opens the profile form on that field.
 */
export function Dashboard() {
  const user = useUser()
  const [, navigate] = useLocation()
  const [profileOpen, profile] = useDisclosure(false)
  const needs = useNeeds()
  const counts = useCounts()
  const needsFetched = useListFetched('needs')
  const search = useSearch()
  // The field to bring into view, for the version of the user the form was opened on
  // (the form is remounted when the user is saved: it must not jump there again).
  const [focus, setFocus] = useState<{ field: ProfileFormField; at: number; version?: string } | null>(null)
  const type = user?.type
  const version = user?.updatedAt

  const openProfileAt = (field: ProfileFormField) => {
    profile.open()
    setFocus({ field, at: Date.now(), version })
  }

  // A link elsewhere (the proposal form) names a field: open the form there, once.
  const asked = parseProfileParam(new URLSearchParams(search).get(PROFILE_PARAM))
  const openProfile = profile.open
  useEffect(() => {
    if (!asked || !version) return
    openProfile()
    setFocus({ field: asked, at: Date.now(), version })
    navigate('/', { replace: true })
  }, [asked, version, openProfile, navigate])

  // The shop's standing is read apart from the user load (its cost follows
  // the platform's trade, not the user); the map asks for its own shops.
  useEffect(() => {
    if (type === 'distributor') void loadRewards()
  }, [type])

  // A producer's farm, from its profile coordinates (latitude then longitude).
  const home = useMemo(() => {
    if (user?.type !== 'producer') return null
    const lonLat = shopLonLat(user)
    return lonLat ? { name: user.name, lonLat } : null
  }, [user])

  // A shop's own pin follows its saved profile at once, before the map's next answer.
  const ownShop = useMemo(() => {
    if (user?.type !== 'distributor') return undefined
    return { name: user.name, lonLat: shopLonLat(user) }
  }, [user])

  if (!user) return null
  const producer = user.type === 'producer'

  const quit = async () => {
    await logout()
    navigate('/')
  }

  const map = (
    <ShopMap
      ownShopId={producer ? undefined : user._id}
      ownShop={ownShop}
      home={home}
      onShopClick={producer ? (id) => navigate(paths.prodNeeds(id)) : undefined}
      shopLink={producer ? paths.prodNeeds : undefined}
    />
  )

  return (
    <Container size="xl" py="md" pb={96}>
      <Stack gap="md">
        {producer ? (
          <Stack gap={2}>
            <Title order={1} size="h2">
              Planifier mes ventes
            </Title>
            <Text c="dimmed">
              Je choisis un magasin sur la carte, je visualise ses besoins et je propose mes produits.
            </Text>
          </Stack>
        ) : (
          <Group gap="sm" align="baseline">
            <Title order={1} size="h2">
              {user.name || 'Tableau de bord'}
            </Title>
            <Text c="dimmed">Espace magasin</Text>
          </Group>
        )}
        <IdentifierNotice issues={user.identifierIssues} onCorrect={openProfileAt} />
        <SetupChecklist
          user={user}
          // The needs held are the months read: the load's count of every month, or more once this session added some.
          needCount={producer ? 0 : needsFetched ? Math.max(needs.length, counts.needs) : counts.needs}
          onOpenField={openProfileAt}
        />
        {producer ? <PAWarning owner={user.email} /> : null}
        {/* Opened (the header's account menu, the footer's button, a link), the
            profile comes before the map and the charts: in view at once (issue 37). */}
        {profileOpen ? (
          <Suspense fallback={<Loading />}>
            <ProfileForm
              key={user.updatedAt}
              user={user}
              onClose={profile.close}
              focus={focus?.version === user.updatedAt ? focus : null}
            />
            {producer ? <DeliveryTermsForm /> : null}
          </Suspense>
        ) : null}
        {producer ? (
          map
        ) : (
          <Grid gap="lg" align="stretch">
            <Grid.Col span={{ base: 12, md: 8 }}>{map}</Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <RewardsPanel />
            </Grid.Col>
          </Grid>
        )}
        {producer ? null : (
          <Suspense fallback={null}>
            <NearbyProducers />
          </Suspense>
        )}
        <PurchasesChart />
        <Group component="footer" justify="space-between" aria-label="Compte">
          <Button
            variant="light"
            onClick={profileOpen ? profile.close : () => openProfileAt(producer ? 'defaultDeliveryDays' : 'name')}
            aria-expanded={profileOpen}
          >
            {user.email}
          </Button>
          <Button variant="subtle" color="red" onClick={quit}>
            Quitter
          </Button>
        </Group>
      </Stack>
    </Container>
  )
}
