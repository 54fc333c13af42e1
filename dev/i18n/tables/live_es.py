# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""Spanish: the live class, its notices, the teacher's console and the dashboard (issue 36).

Register: tú for the learner and the teacher (docs/i18n/glossary.md); "clase en directo",
"docente", "móvil", "código", "proyector" as the frame and the Start page say them.
"""

T = {
    "**Each step**": "**Cada paso**",
    "**Each student** (✓ right, ✗ wrong with its slip, · not tried)": (
        "**Cada estudiante** (✓ correcto, ✗ incorrecto con su error habitual, · sin intentar)"
    ),
    "**Live class {code}**": "**Clase en directo {code}**",
    "**Live class {code}**: exploring on your own": "**Clase en directo {code}**: exploras por tu cuenta",
    "**Live class {code}**: following the teacher": "**Clase en directo {code}**: sigues al docente",
    "**Live class {code}**: the class follows you to this page": (
        "**Clase en directo {code}**: la clase te sigue a esta página"
    ),
    "**Practice at their own pace** on the Exercises page, with the same code: phones that join go there.": (
        "**Práctica a su propio ritmo** en la página Ejercicios, con el mismo código: los móviles "
        "que se unen van allí."
    ),
    "**Practice at your own pace**: you are seat {number}, “{nick}”.": (
        "**Práctica a tu propio ritmo**: eres el puesto {number}, «{nick}»."
    ),
    "**Practice at your own pace**: you are seat {number}.": (
        "**Práctica a tu propio ritmo**: eres el puesto {number}."
    ),
    "**Question for the class.** {question}": "**Pregunta para la clase.** {question}",
    "**Question:** {question}": "**Pregunta:** {question}",
    "**The class at its own pace**: {n} student": (
        "**La clase a su propio ritmo**: {n} estudiante",
        "**La clase a su propio ritmo**: {n} estudiantes",
    ),
    "**{n} student** in the practice": (
        "**{n} estudiante** en la práctica",
        "**{n} estudiantes** en la práctica",
    ),
    "1 row, numbers by commas": "1 fila, números separados por comas",
    "A nickname for your teacher (optional: only your teacher sees it)": (
        "Un apodo para tu docente (opcional: solo tu docente lo ve)"
    ),
    "A nickname has at most {n} characters.": "Un apodo tiene como máximo {n} caracteres.",
    "A nickname is plain text: letters, digits, spaces, punctuation.": (
        "Un apodo es texto sencillo: letras, cifras, espacios y signos de puntuación."
    ),
    "Already leading a class on another device? Open your control link here.": (
        "¿Ya diriges una clase desde otro dispositivo? Abre aquí tu enlace de control."
    ),
    "Answer": "Respuesta",
    "Answer: {format}.": "Respuesta: {format}.",
    "Anyone who has this link drives your class: scan it with your own phone, and hide it before you project this screen.": (
        "Quien tenga este enlace dirige tu clase: escanéalo con tu propio móvil y ocúltalo "
        "antes de proyectar esta pantalla."
    ),
    "Ask": "Preguntar",
    "Ask for": "Preguntar por",
    "Ask the class": "Preguntar a la clase",
    "At any step: the projector and every phone take it at once.": (
        "En cualquier paso: el proyector y todos los móviles lo adoptan al instante."
    ),
    "At least one exercise stays open.": "Al menos un ejercicio debe quedar abierto.",
    "Back to the teacher": "Volver con el docente",
    "Bar chart of {answered} answer: {parts}.": (
        "Gráfico de barras de {answered} respuesta: {parts}.",
        "Gráfico de barras de {answered} respuestas: {parts}.",
    ),
    "Close the question": "Cerrar la pregunta",
    "Column": "Columna",
    "Copied": "Copiado",
    "Copy failed (the clipboard needs https): copy it above": (
        "No se pudo copiar (el portapapeles necesita https): cópialo de arriba"
    ),
    "Copy my control link": "Copiar mi enlace de control",
    "Counts on the projector (no names)": "Recuentos en el proyector (sin nombres)",
    "Each seat's progress (JSON, zip)": "El progreso de cada puesto (JSON, zip)",
    "Each student works through the exercises you open, on their own phone; this console shows who is where and who is stuck.": (
        "Cada estudiante resuelve en su móvil los ejercicios que abras; esta consola muestra "
        "quién va por dónde y quién se ha atascado."
    ),
    "End it for everyone": "Terminarla para todos",
    "End the class": "Terminar la clase",
    "Every phone leaves the class, and its answers are deleted with it.": (
        "Todos los móviles salen de la clase, y sus respuestas se borran con ella."
    ),
    "Exercise": "Ejercicio",
    "Exercises open": "Ejercicios abiertos",
    "Explore on my own": "Explorar por mi cuenta",
    "Eyes on the screen": "Atención a la pantalla",
    "Go on": "Continuar",
    "Go there": "Ir allí",
    "Hide the join screen": "Ocultar la pantalla para unirse",
    "It drives this class: open it on your own phone to use it as a remote, or after a restart to take the class back.": (
        "Dirige esta clase: ábrelo en tu propio móvil para usarlo como mando, o tras un "
        "reinicio para recuperar la clase."
    ),
    "Join at": "Únete en",
    "Join screen": "Pantalla para unirse",
    "Lead a live class from here, off the projector. **Go live** opens a class on presentation mode's first slide with the current example; open presentation mode (or any page) on the projector, and every phone that joins follows you there.": (
        "Dirige una clase en directo desde aquí, fuera del proyector. **Empezar en directo** "
        "abre una clase en la primera diapositiva del modo presentación con el ejemplo actual; "
        "abre el modo presentación (o cualquier página) en el proyector, y todos los móviles "
        "que se unan te seguirán allí."
    ),
    "Live class: reconnecting…": "Clase en directo: reconectando…",
    "Live class: reconnecting… This page works on its own meanwhile.": (
        "Clase en directo: reconectando… Mientras tanto, esta página funciona por sí sola."
    ),
    "Live class: reconnecting… the answers are kept in the class's store.": (
        "Clase en directo: reconectando… las respuestas se guardan en el almacén de la clase."
    ),
    "Live class: reconnecting… the checks are kept in the class's store.": (
        "Clase en directo: reconectando… las comprobaciones se guardan en el almacén de la clase."
    ),
    "Lock the class to": "Fijar la clase en",
    "No live class has the code {code}: check it with your teacher (the class may have ended).": (
        "Ninguna clase en directo tiene el código {code}: compruébalo con tu docente (puede que "
        "la clase haya terminado)."
    ),
    "No student yet: phones that join with the code appear here.": (
        "Todavía no hay estudiantes: los móviles que se unan con el código aparecerán aquí."
    ),
    "Nobody is stuck.": "Nadie está atascado.",
    "Not asked: the live class cannot be reached just now.": (
        "No se ha preguntado: ahora mismo no se puede acceder a la clase en directo."
    ),
    "Not changed: the live class cannot be reached just now.": (
        "Sin cambios: ahora mismo no se puede acceder a la clase en directo."
    ),
    "Not sent yet: the class cannot be reached just now. Your answer is kept and goes out by itself when the class is back, or press Send to try again.": (
        "Aún no se ha enviado: ahora mismo no se puede acceder a la clase. Tu respuesta se "
        "guarda y se enviará sola cuando vuelva la clase, o pulsa Enviar para intentarlo de nuevo."
    ),
    "Not started: the live class cannot be reached just now.": (
        "No se ha iniciado: ahora mismo no se puede acceder a la clase en directo."
    ),
    "Nothing was sent: correct it and send again.": "No se ha enviado nada: corrígelo y vuelve a enviarlo.",
    "Open": "Abiertos",
    "Open at least one exercise.": "Abre al menos un ejercicio.",
    "Open the next": "Abrir el siguiente",
    "Open the next: {exercise}": "Abrir el siguiente: {exercise}",
    "Open the projector view": "Abrir la vista del proyector",
    "Pause: eyes on the screen": "Pausa: atención a la pantalla",
    "Phones on this server follow only every few seconds: it cannot write the class's watch file ({error}).": (
        "Los móviles de este servidor solo siguen cada pocos segundos: no puede escribir el "
        "archivo de seguimiento de la clase ({error})."
    ),
    "Practice at their own pace": "Práctica a su propio ritmo",
    "QR code of your control link": "Código QR de tu enlace de control",
    "QR code of {address}": "Código QR de {address}",
    "Results (CSV)": "Resultados (CSV)",
    "Reveal": "Revelar",
    "Right first": "Correcto a la primera",
    "Right in the end": "Correcto al final",
    "Seat {number}": "Puesto {number}",
    "Send": "Enviar",
    "Sent: your first answer is the one counted.": "Enviado: cuenta tu primera respuesta.",
    "Show my control link": "Mostrar mi enlace de control",
    "Show the counts on the projector": "Mostrar los recuentos en el proyector",
    "Show the join screen": "Mostrar la pantalla para unirse",
    "Slips, most common first": "Errores habituales, los más frecuentes primero",
    "So far {answered} answered, {right} right.": "Hasta ahora han respondido {answered}, {right} correctamente.",
    "Someone in this class is already called '{nick}': choose another nickname.": (
        "En esta clase ya hay alguien que se llama «{nick}»: elige otro apodo."
    ),
    "Start the lesson": "Empezar la lección",
    "Start the practice": "Empezar la práctica",
    "Step": "Paso",
    "Stop the practice": "Detener la práctica",
    "Student": "Estudiante",
    "Stuck": "Atascados",
    "Stuck after (minutes without progress)": "Atascado tras (minutos sin avanzar)",
    "Students may see the class's counts before the reveal": (
        "Los estudiantes pueden ver los recuentos de la clase antes de revelar"
    ),
    "Students see if they are right": "Los estudiantes ven si aciertan",
    "Take the class to": "Llevar la clase a",
    "That is not a class code: a code has {n} letters and digits, like {example}.": (
        "Eso no es un código de clase: un código tiene {n} letras y cifras, como {example}."
    ),
    "The answer": "La respuesta",
    "The answer: {answer}": "La respuesta: {answer}",
    "The class cannot be reached just now: try again.": (
        "Ahora mismo no se puede acceder a la clase: inténtalo de nuevo."
    ),
    "The class is on **{page}**, step {k} of {n}: **{step}**": (
        "La clase está en **{page}**, paso {k} de {n}: **{step}**"
    ),
    "The class is on **{page}**.": "La clase está en **{page}**.",
    "The class's answers": "Las respuestas de la clase",
    "The class's page as the class sees it, with the join code, in a new tab: put that window on the projector.": (
        "La página de la clase tal como la ve la clase, con el código para unirse, en una pestaña "
        "nueva: pon esa ventana en el proyector."
    ),
    "The live class cannot be reached just now: open the control link again soon.": (
        "Ahora mismo no se puede acceder a la clase en directo: vuelve a abrir el enlace de "
        "control dentro de poco."
    ),
    "The live class cannot be reached just now: try again in a moment.": (
        "Ahora mismo no se puede acceder a la clase en directo: inténtalo de nuevo en un momento."
    ),
    "The live class has ended.": "La clase en directo ha terminado.",
    "The live class of this control link has ended.": (
        "La clase en directo de este enlace de control ha terminado."
    ),
    "The question was closed before your answer arrived.": (
        "La pregunta se cerró antes de que llegara tu respuesta."
    ),
    "The session (CSV)": "La sesión (CSV)",
    "This address is this computer's own (loopback): phones cannot reach it. Set {setting}, or start the app with {command}.": (
        "Esta dirección es la del propio ordenador (loopback): los móviles no pueden llegar a "
        "ella. Define {setting} o inicia la aplicación con {command}."
    ),
    "This control link does not drive any live class (it may be old or wrong).": (
        "Este enlace de control no dirige ninguna clase en directo (puede ser antiguo o erróneo)."
    ),
    "Too many wrong codes from this device: try again in a minute.": (
        "Demasiados códigos erróneos desde este dispositivo: inténtalo de nuevo dentro de un minuto."
    ),
    "Too many wrong codes: try again in {seconds} s.": (
        "Demasiados códigos erróneos: inténtalo de nuevo dentro de {seconds} s."
    ),
    "Tried": "Intentado",
    "Tried: checked at least once. Right first: the first check was right. Right in the end: the last check is right.": (
        "Intentado: comprobado al menos una vez. Correcto a la primera: la primera comprobación "
        "fue correcta. Correcto al final: la última comprobación es correcta."
    ),
    "Use it": "Usarlo",
    "You had already answered: your first answer is the one counted.": (
        "Ya habías respondido: cuenta tu primera respuesta."
    ),
    "Your answer": "Tu respuesta",
    "Your answer: **{answer}**": "Tu respuesta: **{answer}**",
    "Your answers are kept on this phone and reach your teacher when the class is back. Go on working.": (
        "Tus respuestas se guardan en este móvil y llegarán a tu docente cuando vuelva la clase. "
        "Sigue trabajando."
    ),
    "Your control link drives this class from another device (your phone as a remote). It is hidden until you ask: never project it.": (
        "Tu enlace de control dirige esta clase desde otro dispositivo (tu móvil como mando). "
        "Está oculto hasta que lo pidas: nunca lo proyectes."
    ),
    "Your controls (pause, ask, reveal, end) in a new tab, off the projector": (
        "Tus controles (pausar, preguntar, revelar, terminar) en una pestaña nueva, fuera del "
        "proyector"
    ),
    "Your teacher has opened one exercise for now.": "Tu docente ha abierto un ejercicio por ahora.",
    "Your teacher has paused the class. This page comes back by itself.": (
        "Tu docente ha pausado la clase. Esta página volverá sola."
    ),
    "Your teacher sees your checks; no other student does.": (
        "Tu docente ve tus comprobaciones; ningún otro estudiante las ve."
    ),
    "a lesson's exercise": "un ejercicio de la lección",
    "a number of this slide": "un número de esta diapositiva",
    "a scaled score": "una puntuación escalada",
    "a score": "una puntuación",
    "an attention weight": "un peso de atención",
    "an output entry": "un elemento de la salida",
    "answer": "respuesta",
    "at once": "al instante",
    "code {letters}": "código {letters}",
    "e.g. {name}": "p. ej., {name}",
    "no lock: every open one": "sin fijar: todos los abiertos",
    "no progress for {minutes} min": "sin avanzar desde hace {minutes} min",
    "one row per line": "una fila por línea",
    "other": "otro",
    "paused": "en pausa",
    "right": "correcto",
    "solution": "solución",
    "students": "estudiantes",
    "when I reveal": "cuando yo revele",
    "with the code": "con el código",
    "{lead}: **{answer}**. {worked}": "{lead}: **{answer}**. {worked}",
    "{answered} answered": ("{answered} ha respondido", "{answered} han respondido"),
    "{answered} answered of {n} following": (
        "{answered} de {n} que siguen ha respondido",
        "{answered} de {n} que siguen han respondido",
    ),
    "{answered} of {n} student answered": (
        "Respuestas: {answered} de {n} estudiante",
        "Respuestas: {answered} de {n} estudiantes",
    ),
    "{n} not sent yet.": ("{n} aún sin enviar.", "{n} aún sin enviar."),
    "{n} stuck": ("{n} atascado", "{n} atascados"),
    "{n} student following": ("{n} estudiante sigue", "{n} estudiantes siguen"),
    "{n} student following. Press to show the join screen.": (
        "{n} estudiante sigue. Pulsa para mostrar la pantalla para unirse.",
        "{n} estudiantes siguen. Pulsa para mostrar la pantalla para unirse.",
    ),
    "{n} wrong try on {step} ({slip})": (
        "{n} intento fallido en {step} ({slip})",
        "{n} intentos fallidos en {step} ({slip})",
    ),
}
