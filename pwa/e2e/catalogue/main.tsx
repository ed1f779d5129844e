/// <reference types="vite/client" />
// The UI kit catalogue (e2e build only, never in pwa/dist): every component of pwa/src/ui in its
// states, in the app's theme (the toggle switches light/dark; the stored preference applies before
// first paint like in the app) and language (es/en). catalogue.spec.ts runs axe on it in both themes
// and widths, drives a few interactions and writes screenshots. Its own headings are Spanish only:
// no user ever sees this page; every text of the kit itself comes from the locales.
import { COUNTRY_CODES } from "@patrimonio/shared-schema";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { Bell, Download, FolderOpen, Globe, Home, Info, MoreHorizontal, Pencil, Plus, Save, Trash2, Wallet } from "lucide-react";
import { StrictMode, useMemo, useState, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider, useTranslation } from "react-i18next";
import { INTL_LOCALES } from "../../src/i18n/format";
import "../../src/i18n/bundled"; // both languages for createI18n
import { bindDocumentLanguage, createI18n } from "../../src/i18n/i18n";
import { ThemeProvider, useTheme } from "../../src/theme/ThemeProvider";
import { Alert } from "../../src/ui/Alert";
import { Badge } from "../../src/ui/Badge";
import { Button, IconButton, buttonClass } from "../../src/ui/Button";
import { Card } from "../../src/ui/Card";
import { Checkbox, Switch } from "../../src/ui/Checkbox";
import { CodeInput } from "../../src/ui/CodeInput";
import { Combobox, type ComboboxOption } from "../../src/ui/Combobox";
import { DataTable, type DataTableColumn } from "../../src/ui/DataTable";
import { DateInput } from "../../src/ui/DateInput";
import { DecimalInput, PercentInput } from "../../src/ui/DecimalInput";
import { AlertDialog, Dialog, DialogClose } from "../../src/ui/Dialog";
import { DropdownMenu, MenuItem, MenuLabel, MenuSeparator } from "../../src/ui/DropdownMenu";
import { EmptyState } from "../../src/ui/EmptyState";
import { Field } from "../../src/ui/Field";
import { MoneyInput } from "../../src/ui/MoneyInput";
import { NativeSelect } from "../../src/ui/NativeSelect";
import { formatDecimal } from "../../src/ui/number";
import { PageHeader } from "../../src/ui/PageHeader";
import { Popover } from "../../src/ui/Popover";
import { RadioGroup } from "../../src/ui/RadioGroup";
import { SearchInput } from "../../src/ui/SearchInput";
import { Select } from "../../src/ui/Select";
import { Skeleton } from "../../src/ui/Skeleton";
import { Spinner } from "../../src/ui/Spinner";
import { Stepper } from "../../src/ui/Stepper";
import { Tab, TabList, TabPanel, Tabs, useSearchParamTab } from "../../src/ui/Tabs";
import { TextArea } from "../../src/ui/TextArea";
import { TextInput } from "../../src/ui/TextInput";
import { Tooltip } from "../../src/ui/Tooltip";
import { useLanguage } from "../../src/i18n/useLanguage";
import "../../src/styles/app.css";
import styles from "./catalogue.module.css";
import { CATALOGUE_MARKER } from "./marker";

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`} data-section={id}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Sub({ children }: { children: ReactNode }) {
  return <h3 className={styles.subTitle}>{children}</h3>;
}

// ---------------------------------------------------------------- sections

function Buttons() {
  const [busy, setBusy] = useState(false);
  return (
    <Section id="buttons" title="Button · IconButton">
      <Sub>Variantes</Sub>
      <div className={styles.row}>
        <Button variant="primary">Principal</Button>
        <Button>Secundario</Button>
        <Button variant="ghost">Discreto</Button>
        <Button variant="danger" icon={<Trash2 size={16} />}>
          Eliminar
        </Button>
        <Button variant="danger-outline">Eliminar cuenta</Button>
        <a href="#buttons" className={buttonClass({ variant: "primary" })}>
          Enlace con aspecto de botón
        </a>
      </div>
      <Sub>Tamaños, bloque, icono</Sub>
      <div className={styles.row}>
        <Button size="sm">Pequeño</Button>
        <Button>Mediano</Button>
        <Button size="lg" icon={<Download size={16} />}>
          Grande
        </Button>
        <Button iconEnd={<Plus size={16} />}>Con icono al final</Button>
      </div>
      <Sub>Estados</Sub>
      <div className={styles.row}>
        <Button variant="primary" loading={busy} loadingText="Guardando…" icon={<Save size={16} />} onClick={() => setBusy(true)} data-testid="busy-button">
          Guardar cambios
        </Button>
        <Button variant="primary" loading>
          Ocupado sin texto
        </Button>
        <Button disabled>Desactivado</Button>
        <Button variant="ghost" onClick={() => setBusy(false)}>
          Reiniciar
        </Button>
      </div>
      <Sub>IconButton</Sub>
      <div className={styles.row}>
        <IconButton label="Notificaciones" icon={<Bell size={18} />} />
        <IconButton label="Editar" variant="secondary" icon={<Pencil size={16} />} />
        <IconButton label="Eliminar" variant="danger-outline" icon={<Trash2 size={16} />} />
        <IconButton label="Cargando" loading icon={<Save size={16} />} />
        <Button block variant="primary">
          Ancho completo
        </Button>
      </div>
    </Section>
  );
}

function Fields() {
  const [code, setCode] = useState("");
  const [note, setNote] = useState("Una nota breve");
  const [long, setLong] = useState("x".repeat(150));
  const [query, setQuery] = useState("");
  return (
    <Section id="fields" title="Field · TextInput · TextArea · CodeInput · SearchInput">
      <div className={styles.grid}>
        <Field label="Nombre" hint="Como aparece en tu documento" required>
          <TextInput autoComplete="off" defaultValue="Ana" />
        </Field>
        <Field label="Correo electrónico" error="Escribe un correo electrónico válido" required>
          <TextInput type="email" defaultValue="ana@" />
        </Field>
        <Field label="Desactivado">
          <TextInput disabled defaultValue="No se puede cambiar" />
        </Field>
        <Field label="Superficie" hint="Con unidad">
          <TextInput end={<span>m²</span>} defaultValue="120" />
        </Field>
        <Field label="Notas" hint="Hasta 140 caracteres">
          <TextArea maxChars={140} value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
        <Field label="Descripción" error="Como máximo 140 caracteres">
          <TextArea maxChars={140} value={long} onChange={(e) => setLong(e.target.value)} />
        </Field>
        <Field label="Código de verificación" hint="6 cifras">
          <CodeInput value={code} onChange={(e) => setCode(e.target.value)} data-testid="code-input" />
        </Field>
        <Field label="Buscar activos" labelHidden>
          <SearchInput value={query} onChange={setQuery} />
        </Field>
      </div>
    </Section>
  );
}

function Numbers() {
  const { language } = useLanguage();
  const [amount, setAmount] = useState("");
  const [percent, setPercent] = useState("12.5");
  const [money, setMoney] = useState("250000");
  const [currency, setCurrency] = useState("EUR");
  const [date, setDate] = useState("2024-12-31");
  return (
    <Section id="numbers" title="DecimalInput · PercentInput · MoneyInput · DateInput">
      <div className={styles.grid}>
        <div className={styles.stack}>
          <Field label="Cantidad" hint={`Escribe 1.234,56 o pega 1,234.56 · ${formatDecimal("1234.56", language)}`}>
            <DecimalInput value={amount} onChange={setAmount} maxDecimals={4} data-testid="decimal-input" />
          </Field>
          <span className={styles.value}>
            valor: <output data-testid="decimal-value">{JSON.stringify(amount)}</output>
          </span>
        </div>
        <div className={styles.stack}>
          <Field label="Participación">
            <PercentInput value={percent} onChange={setPercent} />
          </Field>
          <span className={styles.value}>valor: {JSON.stringify(percent)}</span>
        </div>
        <div className={styles.stack}>
          <Field label="Valor actual">
            <MoneyInput value={money} onChange={setMoney} currency={currency} onCurrencyChange={setCurrency} />
          </Field>
          <span className={styles.value}>valor: {JSON.stringify(`${money} ${currency}`)}</span>
        </div>
        <Field label="Precio de compra" hint="Moneda del activo">
          <MoneyInput value="99.9" onChange={() => {}} currency="USD" />
        </Field>
        <Field label="Cantidad con error" error="Como máximo 2 decimales.">
          <DecimalInput value="1.234" onChange={() => {}} />
        </Field>
        <div className={styles.stack}>
          <Field label="Fecha de compra">
            <DateInput value={date} onChange={setDate} />
          </Field>
          <span className={styles.value}>valor: {JSON.stringify(date)}</span>
        </div>
      </div>
    </Section>
  );
}

function useCountries(): ComboboxOption[] {
  const { language } = useLanguage();
  return useMemo(() => {
    const names = new Intl.DisplayNames([INTL_LOCALES[language]], { type: "region" });
    const collator = new Intl.Collator(INTL_LOCALES[language]);
    return COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code, hint: code })).sort((a, b) => collator.compare(a.label, b.label));
  }, [language]);
}

function Choices() {
  const countries = useCountries();
  const [country, setCountry] = useState("ES");
  const [role, setRole] = useState("editor");
  const [gender, setGender] = useState("female");
  const [agree, setAgree] = useState(true);
  const [sync, setSync] = useState(false);
  return (
    <Section id="choices" title="Select · Combobox · Checkbox · Switch · RadioGroup">
      <div className={styles.grid}>
        <div className={styles.stack}>
          <Field label="País de residencia" hint={`${countries.length} países`}>
            <Combobox options={countries} value={country} onChange={setCountry} data-testid="country-combobox" />
          </Field>
          <span className={styles.value}>
            valor: <output data-testid="country-value">{JSON.stringify(country)}</output>
          </span>
        </div>
        <Field label="País (vacío, con error)" error="El país es obligatorio" required>
          <Combobox options={countries} value="" onChange={() => {}} />
        </Field>
        <Field label="Rol">
          <Select
            value={role}
            onChange={setRole}
            options={[
              { value: "owner", label: "Propietario" },
              { value: "editor", label: "Editor" },
              { value: "viewer", label: "Lector" },
            ]}
          />
        </Field>
        <Field label="Moneda (nativo)" hint="NativeSelect, para register">
          <NativeSelect defaultValue="EUR">
            <option value="EUR">EUR · euro</option>
            <option value="USD">USD · dólar estadounidense</option>
          </NativeSelect>
        </Field>
        <NativeSelect label="Idioma" compact icon={<Globe size={16} />} defaultValue="es">
          <option value="es">Español</option>
          <option value="en">English</option>
        </NativeSelect>
        <Field label="Frecuencia" hint="Sin elegir">
          <Select value="" onChange={() => {}} options={[{ value: "monthly", label: "Mensual" }]} />
        </Field>
        <Field label="Sexo" group>
          <RadioGroup
            value={gender}
            onChange={setGender}
            orientation="horizontal"
            options={[
              { value: "female", label: "Mujer" },
              { value: "male", label: "Hombre" },
              { value: "other", label: "Otro", description: "Prefiero no decirlo" },
            ]}
          />
        </Field>
        <div className={styles.stack}>
          <Checkbox label="Acepto las condiciones" checked={agree} onCheckedChange={setAgree} />
          <Checkbox label="Seleccionar todos" checked="indeterminate" description="Algunos elegidos" />
          <Checkbox label="Desactivado" disabled />
          <Switch label="Sincronizar automáticamente" description="Se aplica al momento" checked={sync} onCheckedChange={setSync} />
          <Switch label="Activado" checked onCheckedChange={() => {}} />
        </div>
      </div>
    </Section>
  );
}

function Feedback() {
  return (
    <Section id="feedback" title="Alert · Badge · Spinner · Skeleton · EmptyState">
      <div className={styles.stack}>
        <Alert>No se pudo guardar: el servidor no responde.</Alert>
        <Alert tone="info" title="Sin conexión">
          Los cambios se enviarán al volver la conexión.
        </Alert>
        <Alert tone="success">Guardado.</Alert>
        <Alert tone="warning">Este espacio tiene cambios sin enviar.</Alert>
      </div>
      <Sub>Badge</Sub>
      <div className={styles.row}>
        <Badge>Neutro</Badge>
        <Badge tone="accent">Propietario</Badge>
        <Badge tone="success">Verificado</Badge>
        <Badge tone="warning">Pendiente</Badge>
        <Badge tone="danger">Rechazado</Badge>
        <Badge tone="outline">Borrador</Badge>
      </div>
      <Sub>Spinner y Skeleton</Sub>
      <div className={styles.grid}>
        <div className={styles.row}>
          <Spinner />
          <Spinner size="lg" showLabel label="Cargando activos…" />
        </div>
        <div className={styles.stack} aria-busy="true">
          <Skeleton shape="title" />
          <Skeleton lines={3} />
          <div className={styles.row}>
            <Skeleton shape="circle" />
            <Skeleton shape="block" />
          </div>
        </div>
      </div>
      <Sub>EmptyState</Sub>
      <EmptyState
        icon={<FolderOpen size={24} />}
        title="Aún no tienes activos"
        text="Añade tu primer activo para ver tu patrimonio."
        action={
          <Button variant="primary" icon={<Plus size={16} />}>
            Añadir activo
          </Button>
        }
        headingLevel={3}
      />
    </Section>
  );
}

const TAB_VALUES = ["summary", "valuations", "documents"] as const;

function Layout() {
  const [tab, setTab] = useSearchParamTab("tab", TAB_VALUES, "summary");
  return (
    <Section id="layout" title="PageHeader · Card · Stepper · Tabs">
      <Card padding="compact">
        <PageHeader
          title="Piso en Madrid"
          subtitle="Inmueble · Residencia habitual"
          back={<a href="#layout">← Activos</a>}
          actions={
            <>
              <Button icon={<Pencil size={16} />}>Editar</Button>
              <Button variant="primary">Añadir valoración</Button>
            </>
          }
        >
          <div className={styles.row}>
            <Badge tone="success">Sincronizado</Badge>
          </div>
        </PageHeader>
      </Card>
      <div className={styles.grid}>
        <Card title="Tu espacio" description="Datos compartidos con tu familia." icon={<Home size={20} />} headingLevel={3} actions={<Button size="sm">Gestionar</Button>}>
          <p>Contenido de la tarjeta.</p>
        </Card>
        <Card title="Zona de peligro" tone="danger" icon={<Trash2 size={20} />} headingLevel={3}>
          <Button variant="danger-outline">Eliminar el espacio</Button>
        </Card>
      </div>
      <Sub>Stepper</Sub>
      <Stepper steps={["Tus datos", "Seguridad", "Tu primer activo"]} current={1} label="Pasos del alta" />
      <Sub>Tabs (en el parámetro ?tab)</Sub>
      <Tabs value={tab} onChange={setTab}>
        <TabList label="Secciones del activo">
          <Tab value="summary">Resumen</Tab>
          <Tab value="valuations">Valoraciones</Tab>
          <Tab value="documents">Documentos</Tab>
        </TabList>
        <TabPanel value="summary">Resumen del activo.</TabPanel>
        <TabPanel value="valuations">Historial de valoraciones.</TabPanel>
        <TabPanel value="documents">Documentos adjuntos.</TabPanel>
      </Tabs>
    </Section>
  );
}

function Overlays() {
  const [deleting, setDeleting] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [confirmed, setConfirmed] = useState(0);
  return (
    <Section id="overlays" title="Dialog · AlertDialog · DropdownMenu · Popover · Tooltip">
      <div className={styles.row}>
        <Dialog
          trigger={<Button data-testid="open-dialog">Abrir diálogo</Button>}
          title="Invitar a una persona"
          description="Recibirá un correo con el enlace."
          footer={
            <>
              <DialogClose>
                <Button variant="ghost">Cancelar</Button>
              </DialogClose>
              <Button variant="primary">Enviar invitación</Button>
            </>
          }
        >
          <Field label="Correo electrónico">
            <TextInput type="email" data-autofocus="" />
          </Field>
        </Dialog>
        <AlertDialog
          open={confirmOpen}
          onOpenChange={setConfirmOpen}
          trigger={
            <Button variant="danger-outline" icon={<Trash2 size={16} />} data-testid="open-alert">
              Eliminar el espacio
            </Button>
          }
          title="¿Eliminar «Familia»?"
          description="Se borrarán todos sus registros para todos sus miembros. No se puede deshacer."
          confirmLabel="Eliminar espacio"
          confirmLoadingLabel="Eliminando…"
          confirmText="Familia"
          loading={deleting}
          onConfirm={() => {
            setDeleting(true);
            setTimeout(() => {
              setDeleting(false);
              setConfirmOpen(false);
              setConfirmed((n) => n + 1);
            }, 300);
          }}
        />
        <span className={styles.value} data-testid="confirmed-count">
          confirmado: {confirmed}
        </span>
        <DropdownMenu trigger={<IconButton label="Más acciones" variant="secondary" icon={<MoreHorizontal size={18} />} />}>
          <MenuLabel>Activo</MenuLabel>
          <MenuItem icon={<Pencil size={16} />}>Editar</MenuItem>
          <MenuItem icon={<Wallet size={16} />}>Añadir valoración</MenuItem>
          <MenuItem disabled>Duplicar</MenuItem>
          <MenuSeparator />
          <MenuItem danger icon={<Trash2 size={16} />}>
            Eliminar
          </MenuItem>
        </DropdownMenu>
        <Popover label="Filtros" trigger={<Button>Filtros</Button>}>
          <div className={styles.stack}>
            <Checkbox label="Solo inmuebles" checked onCheckedChange={() => {}} />
            <Checkbox label="Incluir vendidos" checked={false} onCheckedChange={() => {}} />
          </div>
        </Popover>
        <Tooltip content="Los importes se muestran en la moneda del activo">
          <IconButton label="Información" icon={<Info size={18} />} />
        </Tooltip>
      </div>
    </Section>
  );
}

interface DemoRow {
  id: string;
  name: string;
  kind: string;
  value: string;
  date: string;
}

const KINDS = ["Inmueble", "Vehículo", "Inversión", "Cuenta bancaria", "Cripto"];
const TABLE_ROWS: DemoRow[] = Array.from({ length: 10_000 }, (_, i) => ({
  id: `r${i}`,
  name: `Activo ${String(i + 1).padStart(5, "0")}`,
  kind: KINDS[i % KINDS.length]!,
  value: `${(i * 7919) % 1_000_000}.${String(i % 100).padStart(2, "0")}`,
  date: `20${String(10 + (i % 15)).padStart(2, "0")}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
}));

function Table() {
  const { language } = useLanguage();
  const columns: DataTableColumn<DemoRow>[] = [
    { id: "name", header: "Nombre", cell: (r) => r.name, sortValue: (r) => r.name, width: "minmax(160px, 2fr)" },
    { id: "kind", header: "Clase", cell: (r) => r.kind, sortValue: (r) => r.kind },
    { id: "value", header: "Valor", cell: (r) => formatDecimal(r.value, language, 2), sortValue: (r) => r.value, sortType: "decimal", align: "end" },
    { id: "date", header: "Fecha", cell: (r) => r.date, sortValue: (r) => r.date, width: "120px" },
  ];
  return (
    <Section id="table" title="DataTable (10.000 filas)">
      <DataTable
        label="Activos de ejemplo"
        rows={TABLE_ROWS}
        columns={columns}
        rowKey={(r) => r.id}
        rowLabel={(r) => r.name}
        rowActions={() => (
          <>
            <MenuItem icon={<Pencil size={16} />}>Editar</MenuItem>
            <MenuItem danger icon={<Trash2 size={16} />}>
              Eliminar
            </MenuItem>
          </>
        )}
        height={420}
        data-testid="data-table"
      />
      <Sub>Sin filas</Sub>
      <DataTable label="Tabla vacía" rows={[]} columns={columns} rowKey={(r) => r.id} height={180} />
    </Section>
  );
}

function Catalogue() {
  const { resolved, setPreference } = useTheme();
  const { language, setLanguage } = useLanguage();
  const { t } = useTranslation();
  return (
    <div className={styles.page} data-page={CATALOGUE_MARKER}>
      <header className={styles.bar}>
        <span className={styles.barTitle}>Catálogo del kit · {t("app.name")}</span>
        <div className={styles.barActions}>
          <Button size="sm" onClick={() => setPreference(resolved === "dark" ? "light" : "dark")} data-testid="toggle-theme">
            {resolved === "dark" ? "Tema claro" : "Tema oscuro"}
          </Button>
          <Button size="sm" onClick={() => setLanguage(language === "es" ? "en" : "es")} data-testid="toggle-language">
            {language === "es" ? "English" : "Español"}
          </Button>
        </div>
      </header>
      <main className={styles.main} id="main" tabIndex={-1}>
        <h1>Kit de interfaz</h1>
        <Buttons />
        <Fields />
        <Numbers />
        <Choices />
        <Feedback />
        <Layout />
        <Overlays />
        <Table />
      </main>
    </div>
  );
}

// ---------------------------------------------------------------- boot

const i18n = createI18n();
bindDocumentLanguage(i18n, document.documentElement);
const rootRoute = createRootRoute({ component: Catalogue });
const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ["/"] }) });

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
createRoot(container).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <ThemeProvider>
        <RouterProvider router={router} />
      </ThemeProvider>
    </I18nextProvider>
  </StrictMode>,
);
