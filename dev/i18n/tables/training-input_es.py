"""Issue 41, defects 8 and 9 (the Training lab's Stop and seed, numbers beyond float64) in es.
``python dev/i18n/fill_po.py es dev/i18n/tables/training-input_es.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    'Other data and other starting weights: a whole number from {low} to {high}.': 'Otros datos y otros pesos iniciales: un número entero de {low} a {high}.',
    'The charts appear here when the training ends or when you stop it.': 'Las gráficas aparecen aquí cuando termina el entrenamiento o cuando lo detienes.',
    'larger than {largest}': 'mayor que {largest}',
    'not a number (two of its terms overflowed to +∞ and −∞)': 'no es un número (dos de sus términos se desbordaron a +∞ y −∞)',
    'smaller than −{largest}': 'menor que −{largest}',
    'the numbers of row {row} add up to a sum {what}, beyond the largest number float64 holds: no answer here needs numbers that large': 'los números de la fila {row} suman {what}, más allá del mayor número que cabe en float64: ninguna respuesta aquí necesita números tan grandes',
    "the output overflows: the output for '{query}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of {name} is {big}: use smaller numbers": 'la salida se desborda: la salida para «{query}», columna {col}, es {what}, más allá del mayor número que cabe en float64; la mayor entrada de {name} es {big}: usa números más pequeños',
    "the projection overflows: {name} for '{token}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of X and {W} is {big}: use smaller numbers": 'la proyección se desborda: {name} para «{token}», columna {col}, es {what}, más allá del mayor número que cabe en float64; la mayor entrada de X y {W} es {big}: usa números más pequeños',
    'the scores overflow: q·k for ({query}, {key}) is {what}, beyond the largest number float64 holds; the largest entry of Q and K is {big}: use smaller numbers': 'las puntuaciones se desbordan: q·k para ({query}, {key}) es {what}, más allá del mayor número que cabe en float64; la mayor entrada de Q y K es {big}: usa números más pequeños',
    'the seed must be a whole number from {low} to {high}; {seed} is outside that range': 'la semilla debe ser un número entero de {low} a {high}; {seed} está fuera de ese rango',
    '{problem}. Nothing is trained or drawn for it: the charts come back when the seed is in range, and your other settings stay as they are.': '{problem}. No se entrena ni se dibuja nada con ella: las gráficas vuelven cuando la semilla está en el rango, y tus demás ajustes se quedan como están.',
}
# fmt: on
