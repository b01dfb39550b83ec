/** Statuses as a production deployment holds them (see ../shared/fixtures): Unix-second times, auto_close 0 or 1. */
export interface StatusRecord {
  id: number;
  name: string;
  colour: string;
  auto_close: number;
  order: number;
  created_at: number;
  updated_at: number;
  translations: { status_id: number; name: string; locale: string }[];
}

export const statuses: readonly StatusRecord[] = [
  {
    id: 1,
    name: 'Open',
    colour: '#35a600',
    auto_close: 1,
    order: 1,
    created_at: 1486732738,
    updated_at: 1486732738,
    translations: [
      { status_id: 1, name: 'Ouvrir', locale: 'fr' },
      { status_id: 1, name: 'Offen', locale: 'de' },
    ],
  },
  {
    id: 2,
    name: 'Awaiting Reply',
    colour: '#e0a500',
    auto_close: 0,
    order: 2,
    created_at: 1486732738,
    updated_at: 1520950440,
    translations: [
      { status_id: 2, name: 'En attente de réponse', locale: 'fr' },
      { status_id: 2, name: 'Warten auf Antwort', locale: 'de' },
    ],
  },
  {
    id: 3,
    name: 'Closed',
    colour: '#d40d12',
    auto_close: 0,
    order: 3,
    created_at: 1486732738,
    updated_at: 1486732738,
    translations: [],
  },
  {
    id: 4,
    name: 'On Hold',
    colour: '#8e44ad',
    auto_close: 0,
    order: 4,
    created_at: 1520950440,
    updated_at: 1520950440,
    translations: [{ status_id: 4, name: 'En pause', locale: 'fr' }],
  },
  {
    id: 5,
    name: 'Resolved',
    colour: '#1f6fb2',
    auto_close: 1,
    order: 5,
    created_at: 1520950440,
    updated_at: 1561400012,
    translations: [
      { status_id: 5, name: 'Résolu', locale: 'fr' },
      { status_id: 5, name: 'Gelöst', locale: 'de' },
    ],
  },
];

export const selfserviceTypes = [
  { id: 1, name: 'Question', order: 1 },
  { id: 2, name: 'Incident', order: 2 },
];
