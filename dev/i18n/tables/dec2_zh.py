"""Chinese translations of the Decoder lab's refused link values (issue 44, item 2): what a
link's top-k, top-p, seed, N or tile should have been. Terms as in docs/i18n/glossary.md.
"""

T = {
    "a whole number from {low} to {high}": "{low} 到 {high} 之间的整数",
    "a number from {low} to {high}": "{low} 到 {high} 之间的数",
}
