# Sourced by the Tools scripts: pins Vulkan to lavapipe unless the caller chose a driver, so pixel
# tests and goldens do not depend on which GPU a machine happens to have.
lvp=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
if [ -z "${VK_ICD_FILENAMES:-}" ] && [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$lvp" ]; then
  export VK_ICD_FILENAMES="$lvp"
fi
