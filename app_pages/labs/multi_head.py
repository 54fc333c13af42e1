from attention_ui.frame.widgets import page_header, prev_next
from attention_ui.multi_head import lab

page_header("multi-head")
lab.intro()
lab.heads()  # says what the scenario needs first when it cannot be split yet
lab.example()
lab.code()
prev_next("multi-head")
