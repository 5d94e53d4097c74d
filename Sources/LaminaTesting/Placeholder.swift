import Lamina
