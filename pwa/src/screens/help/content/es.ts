// La ayuda en español (el idioma principal). Mismas secciones y entradas, con los mismos ids y en el
// mismo orden, que en.ts. Los nombres de los estados de sincronización son los que muestra la barra
// superior (sección "sync" de los textos de la app; help.test.ts comprueba que coinciden).
import type { HelpTexts } from "./types";

export const helpEs: HelpTexts = {
  sections: [
    {
      id: "start",
      title: "Primeros pasos",
      summary: "Qué es Patrimonio y por dónde empezar.",
      entries: [
        {
          id: "what",
          title: "Qué puedes hacer aquí",
          paragraphs: [
            "Patrimonio reúne en un solo sitio lo que tienes (inmuebles, vehículos, inversiones, cuentas, criptomonedas, objetos de colección, materias primas y otros bienes), lo que debes, quién lo recibirá y cómo deben actuar tus herederos. Con esos datos calcula tu patrimonio neto y te muestra gráficos de su reparto, su diversificación y su rentabilidad.",
            "Es una herramienta de registro: no mueve dinero ni da asesoramiento financiero, fiscal o jurídico. Las cifras son tan exactas como los datos que introduces.",
          ],
        },
        {
          id: "steps",
          title: "Cómo empezar",
          paragraphs: ["Un orden que funciona bien:"],
          items: [
            "Protege la cuenta con un segundo factor y una llave de acceso (puedes hacerlo al registrarte o más tarde, desde tu perfil).",
            "Añade tus activos desde «Lista de activos» → «Añadir activo»: elige la categoría y rellena el formulario. Basta con el nombre, la moneda, tu porcentaje y el valor actual; el resto puedes completarlo cuando quieras.",
            "Apunta tus deudas en «Pasivos» y átalas al activo que financian (una hipoteca a su piso) para ver el patrimonio neto de cada activo.",
            "Indica en «Beneficiarios» quién recibe cada activo y deja tus instrucciones; el cuaderno del albacea las reúne en un documento para imprimir.",
            "Usa «Tareas» para no olvidar renovaciones, revisiones y vencimientos.",
          ],
          links: [
            { to: "/profile", label: "Tu perfil: segundo factor y llave de acceso" },
            { to: "/assets/new", label: "Añadir activo" },
            { to: "/liabilities", label: "Pasivos" },
            { to: "/beneficiaries", label: "Beneficiarios" },
            { to: "/tasks", label: "Tareas" },
          ],
        },
        {
          id: "workspaces",
          title: "Espacios de trabajo y roles",
          paragraphs: [
            "Tus registros viven en un espacio de trabajo. Tienes uno personal y puedes crear espacios de equipo (por ejemplo, para la familia) e invitar a otras personas. El selector de la barra superior cambia de espacio.",
            "Cada miembro tiene un rol: los propietarios gestionan los miembros y editan; los editores editan; los lectores solo consultan. Si ves el aviso «Solo lectura», tu rol es de lector: pide a un propietario que lo cambie.",
          ],
          links: [
            { to: "/workspaces", label: "Espacios de trabajo" },
          ],
        },
        {
          id: "language",
          title: "Idioma, tema y formato de los números",
          paragraphs: [
            "El idioma (español o inglés) y el tema (claro, oscuro o el del sistema) se cambian desde la barra superior; en el móvil, desde el menú lateral. Los importes y las fechas se escriben y se muestran a tu manera: en español, 1.234,56 y día/mes/año.",
          ],
        },
      ],
    },
    {
      id: "sync",
      title: "Sincronización: qué significa cada estado",
      summary: "El indicador de la barra superior, los conflictos y los cambios rechazados.",
      entries: [
        {
          id: "how",
          title: "Cómo funciona",
          paragraphs: [
            "Cada dispositivo guarda una copia de los registros de tus espacios de trabajo. Lo que cambias se guarda primero en el dispositivo y después se envía al servidor, que lo hace llegar a tus otros dispositivos y a los demás miembros del espacio. El indicador de la barra superior te dice en qué punto está.",
          ],
        },
        {
          id: "starting",
          title: "Iniciando…",
          paragraphs: ["La aplicación está abriendo la copia de tus datos en este dispositivo. Dura un instante al cargar la página."],
        },
        {
          id: "connecting",
          title: "Conectando…",
          paragraphs: ["La aplicación se está conectando al servidor: al cargar la página o al volver la conexión a internet. Si no lo consigue, pasa a «Sin conexión» y lo vuelve a intentar sola; mientras tanto puedes seguir trabajando."],
        },
        {
          id: "synced",
          title: "Sincronizado",
          paragraphs: [
            "Todo lo que has cambiado en este dispositivo está en el servidor y tienes lo último de los demás. Al pasar el ratón por encima verás cuándo fue la última sincronización.",
          ],
        },
        {
          id: "syncing",
          title: "Sincronizando…",
          paragraphs: [
            "Se están enviando tus cambios o recibiendo los de otros dispositivos. Puedes seguir trabajando. La primera vez que entras en un dispositivo verás «Descargando… N registros» mientras llega la copia completa.",
          ],
        },
        {
          id: "offline",
          title: "Sin conexión",
          paragraphs: [
            "No hay conexión con el servidor. Puedes seguir consultando y editando: los cambios se quedan en el dispositivo y se envían solos al recuperar la conexión. Junto al estado verás cuándo se sincronizó por última vez.",
          ],
        },
        {
          id: "pending",
          title: "N cambios por enviar",
          paragraphs: [
            "Cambios hechos en este dispositivo que el servidor aún no ha confirmado. Es normal sin conexión o justo después de guardar. No cierres la sesión mientras quede alguno: al cerrar la sesión se borra la copia del dispositivo, y con ella los cambios que no se hayan enviado.",
          ],
        },
        {
          id: "conflicts",
          title: "N conflictos",
          paragraphs: [
            "Dos dispositivos cambiaron el mismo dato sin ver el cambio del otro (por ejemplo, los dos sin conexión). Gana el cambio más reciente y el otro valor no se pierde: se guarda como conflicto.",
            "Qué hacer: abre el registro. Junto al campo afectado verás el valor sustituido, desde qué dispositivo se escribió y cuándo. Pulsa «Restaurar» para recuperarlo o «Mantener el actual» (o «Descartar») para quedarte con el que se ve. Lo que decidas se aplica en todos los dispositivos.",
          ],
        },
        {
          id: "rejected",
          title: "N cambios rechazados",
          paragraphs: [
            "El servidor no aceptó un cambio. El dispositivo lo sigue mostrando, marcado como rechazado, para que no lo pierdas. Pulsa el aviso para ver la lista de cambios rechazados del espacio de trabajo: qué registro, qué cambio, el motivo y cuándo. En cada uno, «Descartar» deshace el cambio en este dispositivo y vuelve a mostrar lo que tiene el servidor (una eliminación rechazada hace que el registro vuelva a aparecer), y «Reintentar» lo envía de nuevo. Los motivos habituales:",
          ],
          items: [
            "Tu rol en ese espacio de trabajo es de lector (o te lo cambiaron mientras estabas sin conexión): pide a un propietario que te haga editor; después pulsa «Reintentar» o vuelve a guardar el registro. Si no vas a poder editar, descártalo.",
            "Ya no eres miembro de ese espacio de trabajo: el cambio no puede enviarse; descártalo.",
            "Los datos no son válidos junto con los de otro dispositivo (por ejemplo, los porcentajes suman más de 100 %): abre el registro, corrige lo que indique el formulario y guárdalo otra vez. Al guardar, el cambio rechazado se envía de nuevo con la corrección.",
          ],
        },
        {
          id: "stopped",
          title: "Cuando la sincronización se detiene",
          paragraphs: ["A veces el indicador muestra un aviso en lugar del estado:"],
          items: [
            "«Sesión terminada: inicia sesión para sincronizar»: tu sesión caducó o se cerró en otro sitio. Vuelve a iniciar sesión; lo pendiente se enviará después.",
            "«Actualiza la app para seguir sincronizando»: hay una versión nueva. Recarga la página (o pulsa «Recargar» en el aviso de nueva versión).",
            "«El servidor tiene una versión anterior de la app: tus cambios esperan en este dispositivo»: quien gestiona esta instalación ha vuelto a una versión anterior del servidor. No hace falta que hagas nada: tus cambios se quedan en el dispositivo y la app lo vuelve a intentar cada minuto; se envían en cuanto el servidor se actualice.",
            "«Sincronizando en otra ventana»: otra pestaña de este navegador se encarga de sincronizar. No tienes que hacer nada.",
            "«Cierra sesión y vuelve a entrar para sincronizar»: han cambiado tus permisos. Espera a que no quede nada por enviar si puedes, cierra la sesión y vuelve a entrar.",
            "«Sincronización detenida»: un error inesperado. Recarga la página; si se repite, avisa a quien gestiona esta instalación.",
            "«Almacenamiento del dispositivo lleno: libera espacio para sincronizar»: el navegador no deja guardar más datos en este dispositivo. Libera espacio (otras webs, descargas, aplicaciones); la app vuelve a intentarlo sola y no pierde nada de lo que tienes pendiente.",
            "«Error al guardar la sincronización en este dispositivo; reintentando»: algo falló al guardar lo que llegó del servidor. La app lo vuelve a intentar cada vez más espaciado; si el aviso no se va, recarga la página.",
            "«No se puede abrir el almacenamiento de este dispositivo»: el navegador no deja abrir la base de datos de la app (por ejemplo, en una ventana privada o con el almacenamiento bloqueado). Pulsa «Reintentar»; si sigue, revisa los permisos del sitio en el navegador.",
          ],
        },
      ],
    },
    {
      id: "offline",
      title: "Trabajar sin conexión",
      summary: "Qué funciona sin internet y qué necesita conexión.",
      entries: [
        {
          id: "works",
          title: "Qué funciona sin conexión",
          paragraphs: [
            "Después de la primera visita, la aplicación queda guardada en el navegador (verás el aviso «Lista para usar sin conexión») y se abre aunque no haya internet. Sin conexión puedes consultar y editar tus activos, pasivos, flujos, beneficiarios, instrucciones y tareas, ver el panel y el mapa, y leer esta ayuda.",
            "Si instalas la aplicación (desde el menú del navegador, «Instalar» o «Añadir a la pantalla de inicio»), se abre como una app más.",
          ],
        },
        {
          id: "needs",
          title: "Qué necesita conexión",
          paragraphs: ["Iniciar sesión o registrarse, cambiar tu perfil, tu correo o tu seguridad, gestionar miembros y suscripciones, la administración y la primera entrada en un dispositivo nuevo. Los tipos de cambio se actualizan cuando hay conexión; sin ella se usan los últimos descargados."],
        },
        {
          id: "back",
          title: "Al volver la conexión",
          paragraphs: [
            "Los cambios se envían solos, en el orden en que los hiciste, y recibes los de los demás. Si alguien cambió lo mismo que tú, verás un conflicto que puedes resolver (consulta «Sincronización»).",
          ],
        },
        {
          id: "devices",
          title: "Varios dispositivos",
          paragraphs: [
            "Puedes usar Patrimonio en el ordenador y en el móvil a la vez: cada uno tiene su copia y se ponen al día al sincronizar. Al cerrar la sesión en un dispositivo se borra su copia; tus datos siguen en el servidor y en tus otros dispositivos.",
          ],
        },
      ],
    },
    {
      id: "security",
      title: "Seguridad",
      summary: "Segundo factor, llaves de acceso y el baúl de accesos cifrado.",
      entries: [
        {
          id: "second-factor",
          title: "Segundo factor",
          paragraphs: [
            "Además de la contraseña, puedes pedir un código de 6 cifras de una aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password…). Se activa al registrarte o desde tu perfil: escanea el código QR, o escribe el código manual, y confirma con el primer código que te dé la aplicación.",
            "Para acciones delicadas (cambiar el correo, borrar la cuenta) la aplicación vuelve a comprobar que eres tú: con tu contraseña, el código de la aplicación o un código que te enviamos por correo.",
          ],
          links: [
            { to: "/profile", label: "Tu perfil" },
          ],
        },
        {
          id: "passkeys",
          title: "Llaves de acceso",
          paragraphs: [
            "Una llave de acceso te permite entrar con la huella, la cara o el PIN del dispositivo, sin escribir la contraseña. No se puede adivinar ni robar con una página falsa. Créala al registrarte o desde tu perfil; puedes tener una en cada dispositivo.",
          ],
          links: [
            { to: "/profile", label: "Tu perfil" },
          ],
        },
        {
          id: "vault",
          title: "El baúl de accesos",
          paragraphs: [
            "En «Accesos» guardas los usuarios y contraseñas que tus herederos necesitarán (bancos, correo, brókeres). Las contraseñas y las notas se cifran en tu dispositivo con una frase de paso antes de guardarse o enviarse: ni el servidor ni quien lo gestiona pueden leerlas.",
            "El baúl está cerrado por defecto. Ábrelo con la frase de paso; se vuelve a cerrar solo tras un rato sin actividad y al cerrar la sesión. Cerrado, muestra las entidades y los usuarios, pero no las contraseñas.",
            "Guarda la frase de paso en un lugar seguro y dísela a quien deba abrir el baúl: si la olvidas, nadie puede recuperar las contraseñas guardadas.",
          ],
          links: [
            { to: "/logins", label: "Accesos" },
          ],
        },
        {
          id: "vault-rotate",
          title: "Si la frase de paso se ha filtrado: renovar la clave",
          paragraphs: [
            "Cambiar la frase de paso solo vuelve a proteger la misma clave: quien tenga una copia antigua del baúl y la frase anterior podría seguir abriéndola. Si la frase se ha filtrado o has quitado del espacio de trabajo a alguien que la conocía, abre el baúl y pulsa «Renovar la clave».",
            "Se crea una clave nueva con una frase de paso nueva y todos los accesos se cifran de nuevo con ella; lo que se guarde después, en cualquier dispositivo, usa la clave nueva. Las claves antiguas se conservan bajo la nueva frase para no perder nada de lo guardado sin conexión. Con la frase anterior, como mucho, se podría leer lo que ya estaba guardado antes; por eso, cambia después en cada entidad las contraseñas que puedan haberse visto.",
            "Tus otros dispositivos y los miembros necesitarán la nueva frase de paso. Un dispositivo que seguía abierto con la clave anterior lo avisa y te la pide.",
          ],
          links: [
            { to: "/logins", label: "Accesos" },
          ],
        },
        {
          id: "device",
          title: "Tu dispositivo",
          paragraphs: [
            "Mientras la sesión está abierta, quien use tu navegador puede ver la copia de tus datos: bloquea tus dispositivos y cierra la sesión en los que no sean tuyos. Al cerrar la sesión se borra la copia de ese dispositivo.",
          ],
        },
      ],
    },
    {
      id: "binder",
      title: "El cuaderno del albacea",
      summary: "Un documento para imprimir con lo que tus herederos necesitan saber.",
      entries: [
        {
          id: "what",
          title: "Qué es",
          paragraphs: [
            "Un único documento, en tu idioma, pensado para quien tenga que ocuparse de tu herencia: tus activos con dónde están y en qué entidad, tus deudas, tus beneficiarios y lo que recibe cada uno, tus instrucciones y dónde está el baúl de accesos y cómo se abre (nunca incluye las contraseñas).",
          ],
        },
        {
          id: "how",
          title: "Cómo se obtiene",
          paragraphs: [
            "Ábrelo desde «Beneficiarios». Usa «Imprimir» para imprimirlo o guardarlo como PDF desde el diálogo de impresión del navegador. Se genera en tu dispositivo con los datos que tienes en ese momento, así que también funciona sin conexión.",
            "Vuelve a imprimirlo cuando cambies algo importante y guárdalo donde tus herederos puedan encontrarlo; es un documento confidencial.",
          ],
          links: [
            { to: "/beneficiaries/binder", label: "Abrir el cuaderno del albacea" },
          ],
        },
      ],
    },
    {
      id: "faq",
      title: "Preguntas frecuentes",
      summary: "Dudas habituales.",
      entries: [
        {
          id: "where-data",
          title: "¿Dónde se guardan mis datos?",
          paragraphs: [
            "En el servidor de esta instalación y, como copia, en cada dispositivo en el que inicias sesión. Las contraseñas del baúl de accesos se guardan cifradas con tu frase de paso. Lo explica en detalle la política de privacidad.",
          ],
          links: [
            { to: "/privacy", label: "Política de privacidad" },
          ],
        },
        {
          id: "delete-asset",
          title: "¿Qué pasa si elimino un activo?",
          paragraphs: [
            "Se elimina con su historial de valoraciones. Las deudas, instrucciones, flujos, tareas y accesos que se referían a él se conservan, pero ya no están atados a ningún activo; los beneficiarios pierden solo el reparto de ese activo. No se puede deshacer.",
          ],
        },
        {
          id: "cannot-edit",
          title: "¿Por qué no puedo editar?",
          paragraphs: [
            "Tu rol en el espacio de trabajo activo es de lector. Pide a un propietario que cambie tu rol, o cambia a otro espacio desde la barra superior.",
          ],
        },
        {
          id: "missing-rate",
          title: "¿Por qué un importe no cuenta en el total?",
          paragraphs: [
            "Para sumar importes en monedas distintas hace falta el tipo de cambio de esa fecha. Si no lo hay, el importe se deja fuera y se indica, en lugar de convertirlo a la ligera. Puedes escribir un tipo de cambio propio para esa moneda.",
          ],
          links: [
            { to: "/", label: "Panel: tipos de cambio manuales" },
          ],
        },
        {
          id: "flows",
          title: "¿Cómo se calculan los flujos y su proyección?",
          paragraphs: [
            "Un flujo es dinero que entra o sale: un alquiler, una nómina, la cuota de un préstamo, los intereses de un depósito. Uno periódico ocurre en su fecha y después cada día, semana, mes, trimestre o año hasta su fecha final (incluida). Si empieza un día 31, los meses más cortos usan su último día: 31 de enero, 28 de febrero, 31 de marzo.",
            "«Próximos 12 meses» suma desde hoy; la proyección mensual va del mes actual a los 11 siguientes y la anual, del año actual a los 4 siguientes. Cada moneda va en su propia línea: los flujos en monedas distintas nunca se suman entre sí.",
          ],
          links: [
            { to: "/flows", label: "Flujos" },
          ],
        },
        {
          id: "export",
          title: "¿Puedo exportar mis datos?",
          paragraphs: [
            "Sí: en «Lista de activos», «Descargar CSV» descarga los activos que muestra la búsqueda, con los números en tu formato, listo para abrir en una hoja de cálculo.",
            "Y en tu perfil, «Descargar mis datos» descarga todo lo que guardas (activos, valoraciones, estructuras, deudas, flujos, beneficiarios, instrucciones, tareas y accesos de todos tus espacios de trabajo) en un archivo JSON que otras aplicaciones pueden leer. Se prepara en el dispositivo, también sin conexión. Las contraseñas y notas del baúl de accesos no se incluyen.",
          ],
          links: [
            { to: "/assets", label: "Lista de activos" },
            { to: "/profile", label: "Tu perfil: tus datos" },
          ],
        },
        {
          id: "overdue",
          title: "¿Cuándo aparece una tarea como vencida?",
          paragraphs: [
            "Cuando su fecha límite ya ha pasado según el calendario de tu dispositivo y la tarea no está hecha. Las tareas hechas se conservan, plegadas bajo «Hechas».",
          ],
          links: [
            { to: "/tasks", search: { overdue: 1 }, label: "Ver las tareas vencidas" },
          ],
        },
        {
          id: "advice",
          title: "¿Patrimonio me aconseja qué hacer con mi dinero?",
          paragraphs: ["No. Es un registro de tu patrimonio; para decisiones financieras, fiscales o legales consulta a un profesional."],
        },
      ],
    },
  ],
};
