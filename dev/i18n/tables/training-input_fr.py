"""Issue 41, defects 8 and 9 (the Training lab's Stop and seed, numbers beyond float64) in fr.
``python dev/i18n/fill_po.py fr dev/i18n/tables/training-input_fr.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    'Other data and other starting weights: a whole number from {low} to {high}.': "D'autres données et d'autres poids de départ\xa0: un nombre entier de {low} à {high}.",
    'The charts appear here when the training ends or when you stop it.': "Les graphiques apparaissent ici quand l'entraînement se termine ou quand vous l'arrêtez.",
    'larger than {largest}': 'supérieur à {largest}',
    'not a number (two of its terms overflowed to +∞ and −∞)': 'pas un nombre (deux de ses termes ont débordé vers +∞ et −∞)',
    'smaller than −{largest}': 'inférieur à −{largest}',
    'the numbers of row {row} add up to a sum {what}, beyond the largest number float64 holds: no answer here needs numbers that large': 'les nombres de la ligne {row} ont une somme {what}, au-delà du plus grand nombre que float64 peut représenter\xa0: aucune réponse ici ne demande des nombres aussi grands',
    "the output overflows: the output for '{query}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of {name} is {big}: use smaller numbers": 'la sortie déborde\xa0: la sortie pour «\xa0{query}\xa0», colonne {col}, est {what}, au-delà du plus grand nombre que float64 peut représenter\xa0; la plus grande entrée de {name} vaut {big}\xa0: utilisez des nombres plus petits',
    "the projection overflows: {name} for '{token}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of X and {W} is {big}: use smaller numbers": 'la projection déborde\xa0: {name} pour «\xa0{token}\xa0», colonne {col}, est {what}, au-delà du plus grand nombre que float64 peut représenter\xa0; la plus grande entrée de X et de {W} vaut {big}\xa0: utilisez des nombres plus petits',
    'the scores overflow: q·k for ({query}, {key}) is {what}, beyond the largest number float64 holds; the largest entry of Q and K is {big}: use smaller numbers': 'les scores débordent\xa0: q·k pour ({query}, {key}) est {what}, au-delà du plus grand nombre que float64 peut représenter\xa0; la plus grande entrée de Q et de K vaut {big}\xa0: utilisez des nombres plus petits',
    'the seed must be a whole number from {low} to {high}; {seed} is outside that range': 'la graine doit être un nombre entier de {low} à {high}\xa0; {seed} est hors de cet intervalle',
    '{problem}. Nothing is trained or drawn for it: the charts come back when the seed is in range, and your other settings stay as they are.': "{problem}. Rien n'est entraîné ni tracé pour elle\xa0: les graphiques reviennent quand la graine est dans l'intervalle, et vos autres réglages restent tels quels.",
}
# fmt: on
