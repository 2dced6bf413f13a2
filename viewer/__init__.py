"""kernelscope's Qt user interface. It calls kernelscope.core and never parses files itself."""

from kernelscope.viewer import pyside_refcount_fix

pyside_refcount_fix.apply()
